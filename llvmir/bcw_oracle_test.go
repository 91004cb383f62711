package llvmir_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// The bitcode writer's oracle: for every module of the corpus (each .ll
// of the repository and of the conformance data that llvm-as-N reads, N
// being 14, 15, 19 and 22, and
// clang-N's text of the C sources of bitcode/testdata/src at -O0 and -O2,
// with and without -g, and of the SQLite amalgamation when it is there),
// the module's text is written as bitcode natively for LLVM N; llvm-dis-N
// of that must equal llvm-dis-N of llvm-as-N's bitcode of the same text
// (only "; ModuleID" may differ), and llvm-bcanalyzer-N must read its
// bitstream (it has no -verify; reading the whole stream is its check).
// A module holding a construct the writer does not know fails the test
// like any other difference: every module llvm-as-N reads is written.

// bcKnownDiffs are the modules whose llvm-dis output differs, each with
// its reason. They are counted apart and do not fail the test.
var bcKnownDiffs = map[string]string{
	// Typed-pointer text read by LLVM 22: llvm-as-22 upgrades the old
	// llvm.lifetime intrinsics (their size operand dropped) when it
	// parses, the bitcode reader when it reads the call; the upgraded
	// declaration ends up in another place of the function list. The
	// module is the same.
	"LLVM 22, spec-constants/SYCL-2020.ll":              "intrinsic upgrade order",
	"LLVM 22, spec-constants/composite-padding-desc.ll": "intrinsic upgrade order",
	"LLVM 22, spec-constants/scalar-O0.ll":              "intrinsic upgrade order",
}

type bcCase struct {
	name string
	v    int
	ll   string // the text's path
}

func TestBitcodeWriterOracle(t *testing.T) {
	for _, v := range []string{"14", "15", "19", "22"} {
		testenv.Tool(t, "llvm-as-"+v)
		testenv.Tool(t, "llvm-dis-"+v)
		testenv.Tool(t, "llvm-bcanalyzer-"+v)
		if v != "14" {
			testenv.Tool(t, "clang-"+v)
		}
	}
	root := testenv.RepoRoot(t)
	tmp := t.TempDir()
	var cases []func() (*bcCase, error)
	n := 0
	out := func(base string) string {
		n++
		return filepath.Join(tmp, fmt.Sprintf("%03d-%s", n, base))
	}
	var lls []string
	for _, dir := range []string{root, testenv.ConformanceDir(t)} {
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() && (e.Name() == ".git" || e.Name() == ".cache" || e.Name() == "out") {
				return filepath.SkipDir
			}
			if !e.IsDir() && strings.HasSuffix(p, ".ll") {
				lls = append(lls, p)
			}
			return nil
		})
	}
	for _, ll := range lls {
		for _, v := range []int{14, 15, 19, 22} {
			name := rel(root, ll)
			cases = append(cases, func() (*bcCase, error) {
				// A .ll the version cannot read is not a case of it.
				if exec.Command(fmt.Sprintf("llvm-as-%d", v), ll, "-o", os.DevNull).Run() != nil {
					return nil, nil
				}
				return &bcCase{name: name, v: v, ll: ll}, nil
			})
		}
	}
	src := filepath.Join(root, "bitcode", "testdata", "src")
	for _, file := range []string{"lists.c", "small.c", "features.cpp"} {
		for _, v := range []int{15, 19, 22} {
			for _, opt := range []string{"-O0", "-O2"} {
				for _, g := range []string{"", "-g"} {
					args := []string{opt, "-S", "-emit-llvm", "-fdebug-compilation-dir=."}
					if g != "" {
						args = append(args, g)
					}
					o := out(fmt.Sprintf("%s-%d.ll", file, v))
					args = append(args, filepath.Join(src, file), "-o", o)
					cases = append(cases, clangCase(fmt.Sprintf("clang-%d", v), args, fmt.Sprintf("%s %s%s", file, opt, g), v, o))
				}
			}
		}
	}
	// Typed pointers: clang-15's typed-pointer text, for LLVM 14 and 15.
	for _, file := range []string{"lists.c", "small.c", "features.cpp"} {
		for _, opt := range []string{"-O0", "-O2 -g"} {
			o := out(file + "-typed.ll")
			args := append([]string{"-Xclang", "-no-opaque-pointers", "-S", "-emit-llvm", "-fdebug-compilation-dir=.", filepath.Join(src, file), "-o", o}, strings.Fields(opt)...)
			made := sync.OnceValue(func() error {
				if out, err := exec.Command("clang-15", args...).CombinedOutput(); err != nil {
					return fmt.Errorf("clang-15 %s: %v\n%s", file, err, out)
				}
				return nil
			})
			for _, v := range []int{14, 15} {
				name := fmt.Sprintf("%s %s typed", file, opt)
				cases = append(cases, func() (*bcCase, error) {
					if err := made(); err != nil {
						return nil, err
					}
					// Text LLVM 14 cannot read is not a case of it.
					if exec.Command(fmt.Sprintf("llvm-as-%d", v), o, "-o", os.DevNull).Run() != nil {
						return nil, nil
					}
					return &bcCase{name: name, v: v, ll: o}, nil
				})
			}
		}
	}
	sqlite := filepath.Join(root, ".cache", "sqlite3", "sqlite3.c")
	if _, err := os.Stat(sqlite); err == nil {
		for _, v := range []int{15, 19, 22} {
			for _, opt := range []string{"-O0 -g", "-O2"} {
				o := out(fmt.Sprintf("sqlite3-%d.ll", v))
				args := append(strings.Fields(opt), "-S", "-emit-llvm", "-fdebug-compilation-dir=.", sqlite, "-o", o)
				cases = append([]func() (*bcCase, error){clangCase(fmt.Sprintf("clang-%d", v), args, "sqlite3.c "+opt, v, o)}, cases...)
			}
		}
	} else if testenv.InCI() {
		t.Errorf("the SQLite amalgamation .cache/sqlite3/sqlite3.c is missing (scripts/install-toolchain.sh fetches it)")
	} else {
		// The rest of the corpus is still checked.
		testenv.NotChecked(t, "the SQLite amalgamation (.cache/sqlite3/sqlite3.c is missing)")
	}

	type stat struct{ passed, known, unsupported, functions, bytes int }
	var mu sync.Mutex
	stats := map[int]*stat{}
	var unsupported []string
	runCases(cases, func(c *bcCase, err error) {
		if err != nil {
			t.Error(err)
			return
		}
		if c == nil {
			return
		}
		fns, size, unsup, err := checkWriter(c, tmp)
		mu.Lock()
		defer mu.Unlock()
		s := stats[c.v]
		if s == nil {
			s = &stat{}
			stats[c.v] = s
		}
		key := fmt.Sprintf("LLVM %d, %s", c.v, c.name)
		switch {
		case err != nil && bcKnownDiffs[key] != "":
			s.known++
			t.Logf("known difference (%s): %s: %v", bcKnownDiffs[key], key, firstLine(err.Error()))
		case err != nil:
			t.Errorf("%s: %v", key, err)
		case unsup != "":
			s.unsupported++
			unsupported = append(unsupported, fmt.Sprintf("LLVM %d, %s: %s", c.v, c.name, unsup))
			t.Errorf("%s: %s", key, unsup)
		default:
			s.passed++
			s.functions += fns
			s.bytes += size
		}
	})
	sort.Strings(unsupported)
	for _, u := range unsupported {
		t.Logf("unsupported: %s", u)
	}
	var vs []int
	for v := range stats {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	for _, v := range vs {
		s := stats[v]
		t.Logf("LLVM %d: %d modules written natively and equal (%d functions, %d bytes of bitcode), %d known differences, %d unsupported",
			v, s.passed, s.functions, s.bytes, s.known, s.unsupported)
	}
	// Most bodies of the corpus can be shared; none would mean that the
	// check above compared nothing.
	t.Logf("function bodies taken from a BodyCache and written the same: %d", bcShared.Load())
	if bcShared.Load() == 0 {
		t.Errorf("no body was taken from a BodyCache")
	}
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
}

func clangCase(tool string, args []string, name string, v int, o string) func() (*bcCase, error) {
	return func() (*bcCase, error) {
		if out, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s %s: %v\n%s", tool, name, err, out)
		}
		return &bcCase{name: name, v: v, ll: o}, nil
	}
}

func runCases(cases []func() (*bcCase, error), check func(*bcCase, error)) {
	ch := make(chan func() (*bcCase, error))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				check(j())
			}
		}()
	}
	for _, j := range cases {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

var bcModuleID = regexp.MustCompile(`(?m)^; ModuleID = .*\n`)

var bcSeq sync.Mutex
var bcN int

// bcShared counts the bodies the third writes of checkWriter took from
// their BodyCache.
var bcShared atomic.Int64

// checkWriter writes one module natively and compares it with llvm-as's.
func checkWriter(c *bcCase, tmp string) (fns, size int, unsup string, err error) {
	text, err := os.ReadFile(c.ll)
	if err != nil {
		return 0, 0, "", err
	}
	bc, err := llvmir.AssembleBitcode(c.ll, text, llvmir.BitcodeOptions{LLVM: c.v})
	if err != nil {
		if strings.Contains(err.Error(), "is not supported") {
			return 0, 0, firstLine(err.Error()), nil
		}
		return 0, 0, "", fmt.Errorf("the writer: %v", err)
	}
	// The same module written three times with one BodyCache: the third
	// takes every body it can from the cache, and must be the same bytes.
	bodies := llvmir.NewBodyCache(0)
	for i := 0; i < 3; i++ {
		again, err := llvmir.AssembleBitcode(c.ll, text, llvmir.BitcodeOptions{LLVM: c.v, Bodies: bodies})
		if err != nil {
			return 0, 0, "", fmt.Errorf("the writer, bodies shared, write %d: %v", i+1, err)
		}
		if i == 2 && !bytes.Equal(again, bc) {
			return 0, 0, "", fmt.Errorf("written with %d bodies from a BodyCache, the bitcode differs", bodies.Shared())
		}
	}
	bcShared.Add(int64(bodies.Shared()))
	bcSeq.Lock()
	bcN++
	base := filepath.Join(tmp, fmt.Sprintf("w%04d", bcN))
	bcSeq.Unlock()
	ours, ref := base+".ours.bc", base+".ref.bc"
	if err := os.WriteFile(ours, bc, 0o644); err != nil {
		return 0, 0, "", err
	}
	v := fmt.Sprint(c.v)
	if o, err := exec.Command("llvm-as-"+v, c.ll, "-o", ref).CombinedOutput(); err != nil {
		return 0, 0, "", fmt.Errorf("llvm-as-%s: %v\n%s", v, err, o)
	}
	if o, err := exec.Command("llvm-bcanalyzer-"+v, ours).CombinedOutput(); err != nil {
		return 0, 0, "", fmt.Errorf("llvm-bcanalyzer-%s rejects it: %v\n%s", v, err, firstLines(o, 4))
	}
	want, err := exec.Command("llvm-dis-"+v, ref, "-o", "-").Output()
	if err != nil {
		return 0, 0, "", fmt.Errorf("llvm-dis-%s of llvm-as's bitcode: %v", v, err)
	}
	got, err := exec.Command("llvm-dis-"+v, ours, "-o", "-").CombinedOutput()
	if err != nil {
		return 0, 0, "", fmt.Errorf("llvm-dis-%s rejects the bitcode: %v\n%s", v, err, firstLines(got, 4))
	}
	want, got = bcModuleID.ReplaceAll(want, nil), bcModuleID.ReplaceAll(got, nil)
	if !bytes.Equal(want, got) {
		return 0, 0, "", fmt.Errorf("llvm-dis-%s differs:\n%s", v, bcFirstDiff(want, got))
	}
	return bytes.Count(text, []byte("\ndefine ")), len(bc), "", nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstLines(b []byte, n int) string {
	l := strings.SplitN(string(b), "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

func bcFirstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  llvm-as: %s\n  ours:    %s", i+1, a, b)
		}
	}
	return ""
}
