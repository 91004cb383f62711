package llvmir

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

var errPos = regexp.MustCompile(`^f\.ll:[0-9]+:[0-9]+: `)

// FuzzParse runs the lexer and parser on arbitrary input: it must never
// panic, an error must be an ErrorList of "file:line:col: message", and a
// module that parses must write back byte-identical and survive the
// writer, constant, layout and metadata code.
//
//	go test ./llvmir -run '^$' -fuzz FuzzParse -parallel 1 -fuzztime 10m
func FuzzParse(f *testing.F) {
	for _, s := range []string{richSrc, typedSrc, planSrc, "", "@a = global i32 0\n", "define void @f() {\n  ret void\n}\n"} {
		f.Add([]byte(s))
	}
	if s, err := irgen.String(irgen.Small()); err == nil {
		f.Add([]byte(s))
	}
	c := irgen.Small()
	c.Typed = true
	if s, err := irgen.String(c); err == nil {
		f.Add([]byte(s))
	}
	for _, p := range conformanceFiles(f) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	bcw, _ := filepath.Glob(filepath.Join("testdata", "bitcode", "*.ll"))
	for _, p := range bcw {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("f.ll", src)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an ErrorList", err, err)
			}
			for _, e := range list {
				if !errPos.MatchString(e.Error()) {
					t.Fatalf("error without position: %q", e.Error())
				}
			}
			return
		}
		var out bytes.Buffer
		// m.Src is src, with the declarations of intrinsics it calls
		// without declaring them appended.
		if err := m.Write(&out); err != nil || !bytes.Equal(out.Bytes(), m.Src) || !bytes.HasPrefix(m.Src, src) {
			t.Fatalf("not byte-identical (%v)", err)
		}
		// The bitcode writer may refuse the text, never panic.
		for _, v := range []int{0, 14, 22} {
			m.AssembleBitcode(BitcodeOptions{LLVM: v})
		}
		p := m.NewPlan()
		for _, e := range m.Entities {
			switch {
			case e.Func != nil:
				p.MakeDeclaration(e)
				p.AddFnAttr(e, Attr{Key: "k", String: true})
				for _, c := range e.Func.Calls {
					_ = c.FnType.String()
				}
			case e.Var != nil:
				if k, err := m.Initializer(e); err == nil && k != nil {
					m.DataLayout.Bytes(k)
				}
				m.DataLayout.AllocSize(e.Var.Type)
			case e.TypeDef != nil:
				m.DataLayout.Layout(e.TypeDef)
				_ = e.TypeDef.String()
			case e.Node != nil:
				for _, u := range m.MDValueUses(e) {
					if u.Start < e.Off || u.End > e.Off+len(e.Text) || u.Start > u.End || len(u.Globals) == 0 {
						t.Fatalf("!%s: use %d-%d outside the node's text", e.Name, u.Start, u.End)
					}
				}
			}
		}
		p.Write(&bytes.Buffer{})
	})
}

// conformanceFiles lists the shared conformance IR, if present (the fuzz
// seeds do without it).
func conformanceFiles(tb testing.TB) []string {
	root := filepath.Join(testenv.RepoRoot(tb), "..", "shared", "conformance", "intel-llvm")
	var files []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".ll") {
			files = append(files, path)
		}
		return nil
	})
	return files
}
