package bitcode_test

import (
	"bytes"
	"flag"
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
	"testing"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// The oracle: bitcode written by LLVM 14, 15, 19 and 22 (llvm-as of every
// .ll in the repository and the conformance data, clang of the C, C++,
// OpenCL, HIP and SYCL sources in testdata/src at -O0 and -O2 with and
// without -g, and the SQLite amalgamation) is disassembled; llvmir.Parse
// and that version's llvm-as must accept the text, and llvm-dis of the
// re-assembled module must equal llvm-dis of the original.
//
// CI builds SQLite once per version (LLVM 15 -O0 -g, LLVM 19 -O2, LLVM 22
// -O2 -g); -bitcode.full (or SYCBUILD_BITCODE_FULL=1) builds it at -O0 and
// -O2, with and without -g, for each of LLVM 15, 19 and 22.
var full = flag.Bool("bitcode.full", false, "build the whole SQLite matrix in TestOracle")

// oracleModule is one bitcode file of the corpus.
type oracleModule struct {
	name    string
	version int
	path    string
}

func TestOracle(t *testing.T) {
	for _, v := range []string{"14", "15", "19", "22"} {
		testenv.Tool(t, "llvm-as-"+v)
		testenv.Tool(t, "llvm-dis-"+v)
	}
	for _, v := range []string{"15", "19", "22"} {
		testenv.Tool(t, "clang-"+v)
	}
	root := testenv.RepoRoot(t)
	tmp := t.TempDir()
	var jobs []func() (*oracleModule, error)
	n := 0
	out := func(v int, base string) string {
		n++
		return filepath.Join(tmp, fmt.Sprintf("%03d-%s-%d.bc", n, base, v))
	}
	// Every .ll of the repository and of the conformance data.
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
		for _, v := range []int{15, 19, 22} {
			o := out(v, strings.TrimSuffix(filepath.Base(ll), ".ll"))
			name := rel(root, ll)
			jobs = append(jobs, func() (*oracleModule, error) {
				// A .ll the version cannot read (newer syntax) is not a case.
				if exec.Command(fmt.Sprintf("llvm-as-%d", v), ll, "-o", o).Run() != nil {
					return nil, nil
				}
				return &oracleModule{name: name, version: v, path: o}, nil
			})
		}
	}
	// The sources, at -O0 and -O2, with and without -g.
	src := filepath.Join(root, "bitcode", "testdata", "src")
	sources := []struct {
		file string
		args []string
	}{
		{"features.cpp", nil},
		{"lists.c", nil},
		{"small.c", nil},
		{"kernels.cl", []string{"-x", "cl", "-cl-std=CL2.0", "-target", "spir64"}},
		{"device.hip", []string{"-x", "hip", "--offload-arch=gfx900", "-nogpulib", "-nogpuinc", "--cuda-device-only"}},
	}
	for _, s := range sources {
		for _, v := range []int{15, 19, 22} {
			for _, opt := range []string{"-O0", "-O2"} {
				for _, g := range []string{"", "-g"} {
					args := append([]string{opt, "-c", "-emit-llvm", "-fdebug-compilation-dir=."}, s.args...)
					if g != "" {
						args = append(args, g)
					}
					o := out(v, s.file)
					args = append(args, filepath.Join(src, s.file), "-o", o)
					name := fmt.Sprintf("%s %s%s", s.file, opt, g)
					jobs = append(jobs, compileJob(fmt.Sprintf("clang-%d", v), args, name, v, o))
				}
			}
		}
	}
	// SYCL device code of clang-22.
	for _, opt := range [][]string{{"-O2"}, {"-O0", "-debug-info-kind=limited"}} {
		o := out(22, "sycl")
		args := append([]string{"-cc1", "-triple", "spir64-unknown-unknown", "-fsycl-is-device", "-std=c++17", "-emit-llvm-bc"}, opt...)
		args = append(args, filepath.Join(src, "sycl.cpp"), "-o", o)
		jobs = append(jobs, compileJob("clang-22", args, "sycl.cpp "+strings.Join(opt, " "), 22, o))
	}
	// Typed pointers: LLVM 14 and LLVM 15 bitcode of clang-15's typed IR.
	for _, s := range sources[:3] {
		for _, opt := range []string{"-O0", "-O2 -g"} {
			ll := out(0, s.file) + ".ll"
			for _, as := range []struct {
				v    int
				args []string
			}{{14, nil}, {15, []string{"-opaque-pointers=0"}}} {
				o := out(as.v, s.file+"-typed")
				name := fmt.Sprintf("%s %s typed", s.file, opt)
				jobs = append(jobs, func() (*oracleModule, error) {
					args := append([]string{"-Xclang", "-no-opaque-pointers", "-S", "-emit-llvm", "-fdebug-compilation-dir=.", filepath.Join(src, s.file), "-o", "-"}, strings.Fields(opt)...)
					text, err := exec.Command("clang-15", args...).Output()
					if err != nil {
						return nil, fmt.Errorf("clang-15 %s: %v", name, err)
					}
					// LLVM 15 text that LLVM 14 cannot read is not a case.
					if err := os.WriteFile(ll+fmt.Sprint(as.v), text, 0o644); err != nil {
						return nil, err
					}
					cmd := append(append([]string{}, as.args...), ll+fmt.Sprint(as.v), "-o", o)
					if exec.Command(fmt.Sprintf("llvm-as-%d", as.v), cmd...).Run() != nil {
						return nil, nil
					}
					return &oracleModule{name: name, version: as.v, path: o}, nil
				})
			}
		}
	}
	// SQLite.
	sqlite := filepath.Join(root, ".cache", "sqlite3", "sqlite3.c")
	if _, err := os.Stat(sqlite); err != nil {
		testenv.Missing(t, "the SQLite amalgamation .cache/sqlite3/sqlite3.c (scripts/install-toolchain.sh fetches it)")
	}
	builds := map[int][]string{15: {"-O0 -g"}, 19: {"-O2"}, 22: {"-O2 -g"}}
	if *full || os.Getenv("SYCBUILD_BITCODE_FULL") != "" {
		for v := range builds {
			builds[v] = []string{"-O0", "-O0 -g", "-O2", "-O2 -g"}
		}
	}
	var first []func() (*oracleModule, error)
	for _, v := range []int{15, 19, 22} {
		for _, opt := range builds[v] {
			o := out(v, "sqlite3")
			args := append(strings.Fields(opt), "-c", "-emit-llvm", "-fdebug-compilation-dir=.", sqlite, "-o", o)
			first = append(first, compileJob(fmt.Sprintf("clang-%d", v), args, "sqlite3.c "+opt, v, o))
		}
	}
	// The longest jobs first.
	jobs = append(first, jobs...)

	type stat struct{ modules, functions, bytes int }
	var mu sync.Mutex
	stats := map[int]*stat{}
	run(jobs, func(m *oracleModule, err error) {
		if err != nil {
			t.Error(err)
			return
		}
		if m == nil {
			return
		}
		fns, size, err := checkOracle(m)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("LLVM %d, %s: %v", m.version, m.name, err)
			return
		}
		s := stats[m.version]
		if s == nil {
			s = &stat{}
			stats[m.version] = s
		}
		s.modules++
		s.functions += fns
		s.bytes += size
	})
	var vs []int
	for v := range stats {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	for _, v := range vs {
		s := stats[v]
		t.Logf("LLVM %d: %d modules, %d functions, %d bytes of bitcode", v, s.modules, s.functions, s.bytes)
	}
	for _, v := range []int{14, 15, 19, 22} {
		if stats[v] == nil {
			t.Errorf("no module of LLVM %d in the corpus", v)
		}
	}
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
}

func compileJob(tool string, args []string, name string, v int, o string) func() (*oracleModule, error) {
	return func() (*oracleModule, error) {
		if out, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s %s: %v\n%s", tool, name, err, out)
		}
		return &oracleModule{name: name, version: v, path: o}, nil
	}
}

// run runs the jobs on as many workers as there are CPUs, passing each
// result to check (on the same worker).
func run(jobs []func() (*oracleModule, error), check func(*oracleModule, error)) {
	ch := make(chan func() (*oracleModule, error))
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
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

// What llvm-dis output may differ in, and why:
//   - the "; ModuleID = '...'" line names the file llvm-dis read;
//   - "; preds = ..." comments list a block's predecessors in use-list
//     order, which bitcode keeps and text does not (LLParser resolves a
//     forward-referenced block after its uses), so it is not part of the
//     module's meaning.
var (
	moduleIDLine = regexp.MustCompile(`(?m)^; ModuleID = .*\n`)
	predsComment = regexp.MustCompile(`(?m) *; preds = .*$`)
)

func normalise(b []byte) []byte {
	b = moduleIDLine.ReplaceAll(b, nil)
	return predsComment.ReplaceAll(b, nil)
}

// checkOracle disassembles one module and checks it against the LLVM of
// its version; it returns the number of functions and the bitcode's size.
func checkOracle(m *oracleModule) (int, int, error) {
	bc, err := os.ReadFile(m.path)
	if err != nil {
		return 0, 0, err
	}
	text, err := bitcode.Disassemble(filepath.Base(m.path), bc)
	if err != nil {
		return 0, 0, err
	}
	mod, err := llvmir.Parse(m.path+".ll", text)
	if err != nil {
		return 0, 0, fmt.Errorf("llvmir.Parse: %v", err)
	}
	_ = mod
	llPath := m.path + ".ll"
	if err := os.WriteFile(llPath, text, 0o644); err != nil {
		return 0, 0, err
	}
	v := fmt.Sprint(m.version)
	re := m.path + ".re.bc"
	if out, err := exec.Command("llvm-as-"+v, llPath, "-o", re).CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("llvm-as-%s rejects the text: %s", v, firstLines(out, 4))
	}
	want, err := exec.Command("llvm-dis-"+v, m.path, "-o", "-").Output()
	if err != nil {
		return 0, 0, fmt.Errorf("llvm-dis-%s of the original: %v", v, err)
	}
	got, err := exec.Command("llvm-dis-"+v, re, "-o", "-").Output()
	if err != nil {
		return 0, 0, fmt.Errorf("llvm-dis-%s of the re-assembled module: %v", v, err)
	}
	want, got = normalise(want), normalise(got)
	if !bytes.Equal(want, got) {
		return 0, 0, fmt.Errorf("llvm-dis-%s differs after the round trip:\n%s", v, firstDiff(want, got))
	}
	return bytes.Count(text, []byte("\ndefine ")), len(bc), nil
}

func firstLines(b []byte, n int) string {
	l := strings.SplitN(string(b), "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

// firstDiff shows the first lines that differ.
func firstDiff(want, got []byte) string {
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
			return fmt.Sprintf("line %d:\n  original:     %s\n  re-assembled: %s", i+1, a, b)
		}
	}
	return ""
}
