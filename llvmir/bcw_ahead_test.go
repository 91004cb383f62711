package llvmir

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestBitcodeAheadSameBytes writes every module of the corpus (the
// repository's and the conformance tests' .ll files, and generated SYCL
// modules, typed and opaque) with a helper parsing bodies from the last
// (every module gets one), alone and with a BodyCache, and without: the
// bitcode is the same bytes, and a module that cannot be written fails
// with the same error.
func TestBitcodeAheadSameBytes(t *testing.T) {
	defer func(n int) { minAhead = n }(minAhead)
	var mods []aheadModule
	for _, dir := range []string{testenv.RepoRoot(t), testenv.ConformanceDir(t)} {
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() && (e.Name() == ".git" || e.Name() == "out") {
				return filepath.SkipDir
			}
			if !e.IsDir() && strings.HasSuffix(p, ".ll") {
				if b, err := os.ReadFile(p); err == nil {
					mods = append(mods, aheadModule{p, b})
				}
			}
			return nil
		})
	}
	for _, typed := range []bool{true, false} {
		c := irgen.Scaled(200)
		c.Typed = typed
		var b bytes.Buffer
		if err := irgen.Write(&b, c); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, aheadModule{fmt.Sprintf("irgen typed=%v", typed), b.Bytes()})
	}
	mods = append(mods, aheadHostile()...)
	helped := 0
	for _, md := range mods {
		m, err := Parse(md.name, md.src)
		if err != nil {
			continue
		}
		minAhead = 1 << 30
		want, werr := m.AssembleBitcode(BitcodeOptions{})
		minAhead = 1
		// Alone, and with a BodyCache: cold, then warm (it keeps a body
		// met the second time), then hot.
		cache := NewBodyCache(0)
		for _, opt := range []BitcodeOptions{{}, {Bodies: cache}, {Bodies: cache}, {Bodies: cache}} {
			got, gerr := m.AssembleBitcode(opt)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || !bytes.Equal(want, got) {
				t.Errorf("%s: with a helper (cache %v) %d bytes (%v), without %d bytes (%v)", md.name, opt.Bodies != nil, len(got), gerr, len(want), werr)
			}
		}
		if strings.Count(string(md.src), "\ndefine ") >= 2 {
			helped++
		}
	}
	t.Logf("%d modules, %d of two bodies or more", len(mods), helped)
	if helped < 50 {
		t.Errorf("only %d modules of two bodies or more", helped)
	}
}

type aheadModule struct {
	name string
	src  []byte
}

// aheadHostile are modules whose later bodies a helper parses first and
// fails on: a syntax error, a struct type the module does not define, a
// debug record; the writer's own parse decides what they give.
func aheadHostile() []aheadModule {
	body := func(i int, inst string) string {
		return fmt.Sprintf("define i32 @f%d(i32 %%a) {\n  %%x = add i32 %%a, %d\n  %s\n  ret i32 %%x\n}\n", i, i, inst)
	}
	var out []aheadModule
	for _, bad := range []string{"%y = frob i32 %a", "%y = alloca %T.undefined", "%y = add i32 %a, %zz"} {
		var b strings.Builder
		for i := range 40 {
			inst := "%y = mul i32 %x, 3"
			if i == 33 {
				inst = bad
			}
			b.WriteString(body(i, inst))
		}
		out = append(out, aheadModule{"hostile: " + bad, []byte(b.String())})
	}
	return out
}

// FuzzBitcodeAhead reads arbitrary bytes as bitcode and writes what was
// read with a helper (every module gets one) and without: the same bytes,
// or the same error.
//
//	go test ./llvmir -run '^$' -fuzz FuzzBitcodeAhead -fuzztime 10m -fuzzminimizetime 5s
func FuzzBitcodeAhead(f *testing.F) {
	testenv.AddBitcodeSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := bitcode.Disassemble("f.bc", data)
		if err != nil {
			return
		}
		m, err := Parse("f.ll", text)
		if err != nil {
			return
		}
		defer func(n int) { minAhead = n }(minAhead)
		minAhead = 1 << 30
		want, werr := m.AssembleBitcode(BitcodeOptions{})
		minAhead = 1
		got, gerr := m.AssembleBitcode(BitcodeOptions{})
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !bytes.Equal(want, got) {
			t.Errorf("with a helper %d bytes (%v), without %d bytes (%v)", len(got), gerr, len(want), werr)
		}
	})
}
