package pipeline_test

// End-to-end tests: the sycbuild binary on small projects, with the real
// external tools (skipped outside CI when missing, failing in CI).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// project is a temporary directory holding a targets.yaml and its inputs.
type project struct {
	t   testing.TB
	dir string
	env []string
}

// newProject copies testdata files (and the quickstart's device.ll) into a
// new directory named name and writes config as its targets.yaml.
func newProject(t testing.TB, name, config string, files ...string) *project {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	p := &project{t: t, dir: dir, env: os.Environ()}
	p.write("targets.yaml", config)
	for _, f := range files {
		src := filepath.Join("testdata", f)
		if f == "device.ll" {
			src = filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", f)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p.write(f, string(b))
	}
	return p
}

func (p *project) write(name, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, name)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) read(name string) []byte {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.dir, name))
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

func (p *project) exists(name string) bool {
	_, err := os.Stat(filepath.Join(p.dir, name))
	return err == nil
}

// run runs sycbuild in the project's directory.
func (p *project) run(args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	cmd := exec.Command(testenv.Sycbuild(p.t), args...)
	cmd.Dir = p.dir
	cmd.Env = p.env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		p.t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// build runs sycbuild and fails the test unless it succeeds.
func (p *project) build(args ...string) (stderr string, s summary) {
	p.t.Helper()
	_, stderr, code := p.run(args...)
	if code != 0 {
		p.t.Fatalf("sycbuild %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stderr, parseSummary(p.t, stderr)
}

type summary struct{ ran, upToDate, jobsRan, jobsCached, localHits, remoteHits int }

var summaryRE = regexp.MustCompile(`sycbuild: \S+: (\d+) actions run, (\d+) up to date(?:; (\d+) module jobs run, (\d+) up to date)?(?:; (\d+) restored from the local cache, (\d+) from the remote cache)? \(`)

func parseSummary(t testing.TB, stderr string) summary {
	t.Helper()
	m := summaryRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary line in:\n%s", stderr)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return summary{n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6])}
}

// files returns the project's build files (paths relative to out/) with
// their contents, without sycbuild's own state.
func (p *project) files() map[string]string {
	p.t.Helper()
	out := map[string]string{}
	root := filepath.Join(p.dir, "out")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == ".sycbuild" {
				return filepath.SkipDir
			}
			return nil
		}
		b, _ := os.ReadFile(path)
		out[rel] = string(b)
		return nil
	})
	return out
}

// sameFiles reports the differences between two projects' build files.
func sameFiles(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		x, okA := a[n]
		y, okB := b[n]
		switch {
		case !okA || !okB:
			t.Errorf("%s: %s exists in only one build (first: %v)", what, n, okA)
		case x != y:
			t.Errorf("%s: %s differs", what, n)
		}
	}
	if len(a) == 0 {
		t.Errorf("%s: no build files", what)
	}
}

// images links the quickstart's main.c with the project's object and
// returns what it prints about each image ("image 3: target spir64, …").
func (p *project) images() []string {
	p.t.Helper()
	cc := testenv.Tool(p.t, "cc")
	exe := filepath.Join(p.t.TempDir(), "main")
	main := filepath.Join(testenv.RepoRoot(p.t), "examples", "quickstart", "main.c")
	if out, err := exec.Command(cc, "-o", exe, main, filepath.Join(p.dir, "out", "device_images.o")).CombinedOutput(); err != nil {
		p.t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		p.t.Fatalf("running the program: %v\n%s", err, out)
	}
	var imgs []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "image ") || strings.HasPrefix(l, "  kernels:") {
			imgs = append(imgs, l)
		}
	}
	return imgs
}

func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		testenv.Tool(t, n)
	}
}

const aotConfig = `inputs: [vector_ops.ll, image_ops.ll]
split: %s
jobs: 2
targets:
  - kind: spir64
  - kind: spir64_gen
    devices: [pvc, acm-g10]
`

func aotProject(t *testing.T, name, split string) *project {
	return newProject(t, name, strings.Replace(aotConfig, "%s", split, 1), "vector_ops.ll", "image_ops.ll")
}

var allAOT = []string{"llvm-link-15", "llvm-spirv-15", "spirv-val", "ocloc", "cc"}

// TestSPIRV builds SPIR-V and Intel GPU code, per kernel and per source:
// every SPIR-V module is validated (by the build, and again here), ocloc
// builds one fat binary per module for both devices, and the object holds
// one image per module per target, with the module's kernels.
func TestSPIRV(t *testing.T) {
	needTools(t, allAOT...)
	for _, tc := range []struct {
		split   string
		kernels [][]string // per module, in table order
	}{
		{"per_kernel", [][]string{{"_ZTSZ4mainE9Threshold"}, {"_ZTSZ4mainE8VecScale"}, {"_ZTSZ4mainE6VecAdd"}, {"_ZTSZ4mainE5Clamp"}}},
		{"per_source", [][]string{{"_ZTSZ4mainE8VecScale", "_ZTSZ4mainE6VecAdd"}, {"_ZTSZ4mainE9Threshold", "_ZTSZ4mainE5Clamp"}}},
	} {
		t.Run(tc.split, func(t *testing.T) {
			p := aotProject(t, "p", tc.split)
			stderr, s := p.build("-v")
			n := len(tc.kernels)
			if s.ran != 10 || s.jobsRan != 2*n {
				t.Errorf("ran %d actions and %d module jobs, want 10 and %d\n%s", s.ran, s.jobsRan, 2*n, stderr)
			}
			if !strings.Contains(stderr, "llvm-link-15 -S -o out/linked.ll vector_ops.ll image_ops.ll\n") {
				t.Errorf("the two inputs were not linked with llvm-link-15:\n%s", stderr)
			}
			for _, tg := range []string{"spir64", "spir64_gen"} {
				for i := range n {
					spv := "out/" + tg + "/module_" + strconv.Itoa(i) + ".spv"
					if !strings.Contains(stderr, "\nspirv-val "+spv+"\n") {
						t.Errorf("the build did not validate %s", spv)
					}
					if out, err := exec.Command("spirv-val", filepath.Join(p.dir, spv)).CombinedOutput(); err != nil {
						t.Errorf("spirv-val %s: %v\n%s", spv, err, out)
					}
				}
			}
			for i := range n {
				bin := filepath.Join(p.dir, "out/spir64_gen/module_"+strconv.Itoa(i)+".bin")
				ar, err := exec.Command("ar", "t", bin).Output()
				if err != nil || !strings.Contains(string(ar), "64.12.60.7\n") || !strings.Contains(string(ar), "64.12.55.8\n") {
					t.Errorf("%s is not a fat binary for pvc (12.60.7) and acm-g10 (12.55.8): %q %v", bin, ar, err)
				}
			}
			var want []string
			for _, tg := range []string{"spir64, format SPIR-V", "spir64_gen, format native"} {
				for _, ks := range tc.kernels {
					want = append(want, "target "+tg, "  kernels: "+strings.Join(ks, " "))
				}
			}
			var got []string
			for _, l := range p.images() {
				if i := strings.Index(l, "target "); i >= 0 {
					l = l[i:strings.LastIndex(l, ",")]
				}
				got = append(got, l)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("images:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

var reference struct {
	once  sync.Once
	files map[string]string
}

// referenceBuild is a clean per-kernel build of the AOT project, shared by
// the reproducibility tests.
func referenceBuild(t *testing.T) map[string]string {
	reference.once.Do(func() {
		p := aotProject(t, "reference", "per_kernel")
		p.build()
		reference.files = p.files()
	})
	if reference.files == nil {
		t.Fatal("the reference build failed")
	}
	return reference.files
}

// TestDryRunScript: what -n prints, run by bash in a clean copy, builds the
// same files, byte for byte, as sycbuild itself; and a second build in
// another directory is identical too.
func TestDryRunScript(t *testing.T) {
	needTools(t, allAOT...)
	ref := referenceBuild(t)

	p := aotProject(t, "script", "per_kernel")
	script, stderr, code := p.run("-n")
	if code != 0 {
		t.Fatalf("sycbuild -n: exit %d\n%s", code, stderr)
	}
	if p.exists("out") {
		t.Fatal("sycbuild -n wrote files")
	}
	if !strings.Contains(stderr, "sycbuild: dry run: 10 of 10 actions would run") {
		t.Errorf("dry-run summary:\n%s", stderr)
	}
	bash := exec.Command("bash", "-e", "-c", script)
	bash.Dir = p.dir
	bash.Env = append(os.Environ(), "PATH="+filepath.Dir(testenv.Sycbuild(t))+":"+os.Getenv("PATH"))
	if out, err := bash.CombinedOutput(); err != nil {
		t.Fatalf("bash running the -n script: %v\n%s\nscript:\n%s", err, out, script)
	}
	sameFiles(t, "the -n script vs sycbuild", ref, p.files())

	other := aotProject(t, "a-directory-with-a-longer-name", "per_kernel")
	other.build()
	sameFiles(t, "two clean builds in different directories", ref, other.files())
}

// TestNoOpAndIncremental: a second build runs nothing; touching an input
// without changing it runs nothing; changing one translation unit reruns
// only what depends on it: its own module's chain, not the other's.
func TestNoOpAndIncremental(t *testing.T) {
	needTools(t, "llvm-link-15", "llvm-spirv-15", "spirv-val")
	p := newProject(t, "inc", `inputs: [vector_ops.ll, image_ops.ll]
split: per_source
targets:
  - kind: llvm_ir
  - kind: spir64
`, "vector_ops.ll", "image_ops.ll")
	if _, s := p.build(); s.ran != 6 || s.jobsRan != 2 {
		t.Fatalf("first build: %+v", s)
	}
	if _, s := p.build(); s != (summary{0, 6, 0, 2, 0, 0}) {
		t.Errorf("second build: %+v, want nothing run", s)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(p.dir, "vector_ops.ll"), later, later)
	if _, s := p.build(); s != (summary{0, 6, 0, 2, 0, 0}) {
		t.Errorf("after touching an input: %+v, want nothing run", s)
	}

	vecSPV := filepath.Join(p.dir, "out/spir64/module_0.spv")
	before, _ := os.Stat(vecSPV)
	src := string(p.read("image_ops.ll"))
	p.write("image_ops.ll", strings.Replace(src, "i32 noundef 100)", "i32 noundef 99)", 1))
	stderr, s := p.build("-explain")
	// link, one post-link (llvm_ir and spir64 split the same way and share
	// it), extract, fan-out, replace, wrapper; one of two modules.
	if s.ran != 6 || s.jobsRan != 1 || s.jobsCached != 1 {
		t.Errorf("after changing image_ops.ll: %+v\n%s", s, stderr)
	}
	for _, want := range []string{
		"sycbuild explain: out/linked.ll: input image_ops.ll changed",
		"sycbuild explain: out/spir64/module_1.spv: input out/llvm_ir/module_1.bc changed",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("explanation %q missing:\n%s", want, stderr)
		}
	}
	if after, _ := os.Stat(vecSPV); !after.ModTime().Equal(before.ModTime()) {
		t.Error("the unchanged translation unit's SPIR-V was rebuilt")
	}
}

// TestInterrupt: SIGINT stops a build at once, leaves no partial output
// and records nothing it did not finish; the next build completes it, and
// the result is byte-identical to a clean build.
func TestInterrupt(t *testing.T) {
	needTools(t, allAOT...)
	ref := referenceBuild(t)
	p := aotProject(t, "interrupted", "per_kernel")
	cmd := exec.Command(testenv.Sycbuild(t), "-j", "1")
	cmd.Dir = p.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !p.exists("out/spir64/module_1.spv") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted build: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "sycbuild: interrupted\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	filepath.WalkDir(filepath.Join(p.dir, "out"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".tmp") {
			t.Errorf("partial output left: %s", path)
		}
		return nil
	})
	if p.exists("out/device_images.o") {
		t.Fatal("the build finished before the interrupt; the test proves nothing")
	}
	_, s := p.build()
	if s.ran == 0 || s.jobsCached == 0 {
		t.Errorf("the resumed build should reuse finished work and do the rest: %+v", s)
	}
	sameFiles(t, "interrupted and resumed vs clean", ref, p.files())
}

// TestQuickstart runs examples/quickstart/run.sh, what "make demo" runs.
func TestQuickstart(t *testing.T) {
	testenv.Tool(t, "cc")
	dir := filepath.Join(t.TempDir(), "quickstart")
	src := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart")
	os.MkdirAll(dir, 0o755)
	for _, f := range []string{"device.ll", "targets.yaml", "main.c", "run.sh"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o755)
	}
	// Its spir64 and spir64_gen targets are optional: run.sh builds them
	// where their tools are. CI has them all; elsewhere the test says
	// which images it did not check.
	targets := 1
	if testenv.Want(t, "the quickstart's spir64 and spir64_gen images", "llvm-spirv-15") {
		targets++
		if testenv.Want(t, "the quickstart's spir64_gen image", "ocloc") {
			targets++
		}
	}
	out, err := exec.Command(filepath.Join(dir, "run.sh"), testenv.Sycbuild(t)).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	want := "__sycl_register_lib: descriptor version 1, " + strconv.Itoa(4*targets) + " device images\n" +
		"image 0: target llvm_spir64, format none, "
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "  spec constants: uid9b2d4c6f1a3e5d70____ZL9threshold\n") ||
		!strings.Contains(string(out), "main: "+strconv.Itoa(4*targets)+" device images were registered before main\n") {
		t.Errorf("run.sh output:\n%s\nwant it to contain:\n%s", out, want)
	}
}

// TestExamples builds every examples/<kind> config, with one image per
// module. CI installs every tool but NVIDIA's: where ptxas and fatbinary
// are missing, the nvptx64 example runs real llc-19 and stand-ins for them
// (cudaStandIns) that check their command lines, and the test reports that
// the real tools' output was not checked.
func TestExamples(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "examples")
	for _, tc := range []struct {
		name   string
		tools  []string
		images int
	}{
		{"llvm_ir", nil, 2},
		{"spir64", []string{"llvm-spirv-15", "spirv-val"}, 4},
		{"spir64_gen", []string{"llvm-spirv-15", "spirv-val", "ocloc"}, 2},
		{"nvptx64", []string{"llc-19", "ptxas", "fatbinary"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A copy, with the quickstart beside it as the configs expect.
			dir := t.TempDir()
			for _, d := range []string{tc.name, "quickstart"} {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
				entries, _ := os.ReadDir(filepath.Join(root, d))
				for _, e := range entries {
					if e.Type().IsRegular() {
						b, _ := os.ReadFile(filepath.Join(root, d, e.Name()))
						os.WriteFile(filepath.Join(dir, d, e.Name()), b, 0o755)
					}
				}
			}
			p := &project{t: t, dir: filepath.Join(dir, tc.name), env: os.Environ()}
			needs := tc.tools
			var standIns *cudaLog
			if tc.name == "nvptx64" && !(testenv.HaveTool("ptxas") && testenv.HaveTool("fatbinary")) {
				testenv.NotChecked(t, "the real ptxas and fatbinary on the nvptx64 example (no CUDA toolkit here): "+
					"stand-ins checked the command lines sycbuild gave them and wrote placeholder cubins and fat binaries")
				var bin string
				bin, standIns = cudaStandIns(t, "sm_90", "-O3")
				p.env = append(p.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				needs = []string{"llc-19"}
			}
			needTools(t, append(needs, "cc")...)
			if _, stderr, code := p.run("-n"); code != 0 {
				t.Fatalf("-n: exit %d\n%s", code, stderr)
			}
			p.build()
			if standIns != nil {
				// Each module went through llc-19, then ptxas and fatbinary.
				if ptxas, fatbinary := standIns.count("ptxas"), standIns.count("fatbinary"); ptxas != tc.images || fatbinary != tc.images {
					t.Errorf("the stand-ins ran %d times (ptxas) and %d times (fatbinary), want %d each", ptxas, fatbinary, tc.images)
				}
			}
			var n int
			for _, l := range p.images() {
				if strings.HasPrefix(l, "image ") {
					n++
				}
			}
			if n != tc.images {
				t.Errorf("%d images, want %d", n, tc.images)
			}
		})
	}
}

// TestGraphAndTrace: "sycbuild graph" writes the graph as DOT, and -trace
// a Chrome trace with one event per action run and per module job.
func TestGraphAndTrace(t *testing.T) {
	needTools(t, "llvm-spirv-15", "spirv-val")
	p := newProject(t, "p", "inputs: [vector_ops.ll]\nsplit: per_kernel\ntargets:\n  - kind: spir64\n", "vector_ops.ll")
	dot, stderr, code := p.run("graph")
	for _, want := range []string{"digraph sycbuild {\n", "\"f:out/spir64/module.table\" [label=\"out/spir64/module.table\", shape=note]\n",
		"label=\"[spir64] llvm-spirv\\nfor each line of out/spir64/code.list: llvm-spirv-15 → spirv-val\"]\n"} {
		if code != 0 || !strings.Contains(dot, want) {
			t.Errorf("sycbuild graph (exit %d) lacks %q:\n%s%s", code, want, dot, stderr)
		}
	}
	if p.exists("out") {
		t.Error("sycbuild graph built something")
	}
	p.build("-trace", "trace.json")
	var trace struct {
		TraceEvents []struct {
			Name, Cat, Ph string
			Tid           int
		}
	}
	if err := json.Unmarshal(p.read("trace.json"), &trace); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range trace.TraceEvents {
		if e.Ph == "X" {
			count[e.Cat]++
		}
	}
	// 2 modules; 4 actions in-process; each job runs 3 commands.
	want := map[string]int{"job": 2, "fan-out": 1, "sycl-post-link": 1, "file-table-tform": 2, "clang-offload-wrapper": 1, "llvm-spirv": 2, "spirv-val": 2}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("trace events by category: %v, want %v", count, want)
	}
}

// TestSharedPostLink: targets whose sycl-post-link options are the same
// (llvm_ir and spir64: both native spec constants) share one run; a target
// that lowers spec constants differently (spir64_gen: emulation) has its own.
func TestSharedPostLink(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc")
	p := newProject(t, "shared", `inputs: [vector_ops.ll]
split: per_kernel
targets:
  - kind: llvm_ir
  - kind: spir64
  - kind: spir64_gen
    devices: [pvc]
`, "vector_ops.ll")
	script, _, code := p.run("-n")
	if code != 0 {
		t.Fatalf("sycbuild -n: exit %d", code)
	}
	if n := strings.Count(script, " sycl-post-link "); n != 2 {
		t.Errorf("%d sycl-post-link runs, want 2 (llvm_ir and spir64 share one):\n%s", n, script)
	}
}

// The build's product is the ELF host object whatever its name: the wrapper
// tool writes bitcode unless told otherwise (as the reference does), and a
// name not ending in .o must not turn the product into bitcode.
func TestProductIsObjectWhateverItsName(t *testing.T) {
	p := newProject(t, "named", `inputs: [vector_ops.ll]
output: images.bin
targets:
  - kind: llvm_ir
`, "vector_ops.ll")
	p.build()
	if b := p.read("images.bin"); !bytes.HasPrefix(b, []byte("\x7fELF")) {
		t.Errorf("images.bin starts with %q, want an ELF object", b[:min(len(b), 4)])
	}
}
