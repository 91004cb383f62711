//go:build linux

package pipeline_test

// Builds through the slurm executor on a real one-machine Slurm cluster
// (internal/slurmtest), each beside the same build run here.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/internal/slurmtest"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/pipeline"
)

// TestSlurm runs the slurm executor's builds under one cluster: starting
// one takes seconds.
func TestSlurm(t *testing.T) {
	k := slurmtest.Start(t)
	for _, test := range []struct {
		name string
		run  func(*testing.T, *slurmtest.Cluster)
	}{
		{"quickstart", testSlurmQuickstart},
		{"inside an allocation", testSlurmInsideAllocation},
		{"240 modules", testSlurm240},
		{"failing kernel", testSlurmFailingKernel},
		{"tools differ", testSlurmToolsDiffer},
		{"not shared", testSlurmNotShared},
	} {
		t.Run(test.name, func(t *testing.T) {
			test.run(t, k)
			noneLeft(t, k)
		})
	}
}

// onCluster makes p's builds run against the cluster.
func onCluster(p *project, k *slurmtest.Cluster) *project {
	p.env = slices.Concat(k.Env, p.env[len(os.Environ()):])
	return p
}

// noneLeft fails unless squeue shows no job and no step of a sycbuild
// within 15 s.
func noneLeft(t *testing.T, k *slurmtest.Cluster) {
	t.Helper()
	var steps, jobs []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		steps, jobs = k.Steps(t)
		if !strings.Contains(strings.Join(append(steps, jobs...), "\n"), "sycbuild-") {
			return
		}
	}
	t.Errorf("sycbuild's steps or allocation are still in squeue: steps %q, jobs %q", steps, jobs)
}

// stepsRan checks the project's log of steps against Slurm's own view:
// every step it names was launched by slurmd on the node, and each output
// in outputs was written by one of them. It returns the number of steps.
func stepsRan(t *testing.T, p *project, k *slurmtest.Cluster, outputs []string) int {
	t.Helper()
	log := string(p.read(filepath.Join("out", pipeline.StateDirName, pipeline.StepsLog)))
	nodeLog := k.NodeLog()
	lines := strings.Split(strings.TrimSpace(log), "\n")
	byOutput := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 3 || f[1] != k.Node {
			t.Fatalf("steps log line %q: want an id, the node %s and a command", l, k.Node)
		}
		if !strings.Contains(nodeLog, "launch task StepId="+f[0]+" ") {
			t.Errorf("slurmd's log does not name the step %s (%s)", f[0], l)
		}
		for _, w := range f[2:] {
			// Outputs are written under a temporary name first:
			// out/t/.module_3.bin.tmp….
			dir, base := filepath.Split(w)
			if i := strings.Index(base, ".tmp"); i > 0 && strings.HasPrefix(base, ".") {
				base = base[1:i]
			}
			byOutput[dir+base] = true
		}
	}
	for _, o := range outputs {
		if !byOutput[o] {
			t.Errorf("no step wrote %s", o)
		}
	}
	return len(lines)
}

// moduleOutputs names n modules' images of a target.
func moduleOutputs(target, ext string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, "out/"+target+"/module_"+strconv.Itoa(i)+ext)
	}
	return out
}

// testSlurmQuickstart: the quickstart through Slurm equals the local
// build, byte for byte, and every module job ran as a step.
func testSlurmQuickstart(t *testing.T, k *slurmtest.Cluster) {
	needTools(t, "llvm-as-15", "llvm-spirv-15", "spirv-val", "ocloc")
	config, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "targets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	local := newProject(t, "local", string(config), "device.ll")
	_, ls := local.build()
	p := onCluster(newProject(t, "slurm", string(config), "device.ll"), k)
	trace, report := filepath.Join(t.TempDir(), "trace.json"), filepath.Join(t.TempDir(), "report.html")
	stderr, s := p.build("-executor", "slurm", "-trace", trace, "-report", report)
	if s != ls || s.jobsRan != 8 {
		t.Errorf("through Slurm %+v, here %+v; want 8 module jobs\n%s", s, ls, stderr)
	}
	sameFiles(t, "quickstart through Slurm vs here", local.files(), p.files())
	// The trace and the report name the node of every module job.
	var tr struct {
		TraceEvents []struct {
			Cat  string            `json:"cat"`
			Args map[string]string `json:"args"`
		} `json:"traceEvents"`
	}
	if b, err := os.ReadFile(trace); err != nil || json.Unmarshal(b, &tr) != nil {
		t.Fatalf("the trace: %v", err)
	}
	jobs := 0
	for _, e := range tr.TraceEvents {
		if e.Cat == "job" {
			jobs++
			if e.Args["node"] != k.Node {
				t.Errorf("a job's trace event names node %q, want %s: %v", e.Args["node"], k.Node, e.Args)
			}
		}
	}
	if jobs != 8 {
		t.Errorf("%d job events in the trace, want 8", jobs)
	}
	if b, _ := os.ReadFile(report); !bytes.Contains(b, []byte(">"+k.Node+"<")) {
		t.Errorf("the report does not name the node %s", k.Node)
	}
	outputs := append(moduleOutputs("spir64", ".spv", 4), moduleOutputs("spir64_gen", ".bin", 4)...)
	if n := stepsRan(t, p, k, outputs); n < 8 {
		t.Errorf("%d steps for 8 module jobs", n)
	}
	// Nothing changed: nothing runs, on the cluster or here.
	if _, s := p.build("-executor", "slurm"); s.ran != 0 || s.jobsRan != 0 {
		t.Errorf("the rebuild through Slurm ran %+v", s)
	}
}

// testSlurmInsideAllocation: under salloc (SLURM_JOB_ID set) the steps
// run in that allocation, which the build leaves running.
func testSlurmInsideAllocation(t *testing.T, k *slurmtest.Cluster) {
	needTools(t, "llvm-spirv-15", "spirv-val")
	out, err := k.Command("salloc", "--no-shell", "--job-name=outer", "--ntasks=2", "--time=10").CombinedOutput()
	if err != nil {
		t.Fatalf("salloc: %v\n%s", err, out)
	}
	var job string
	_, jobs := k.Steps(t)
	for _, j := range jobs {
		if f := strings.Fields(j); len(f) == 3 && f[1] == "outer" {
			job = f[0]
		}
	}
	if job == "" {
		t.Fatalf("no allocation named outer: %q", jobs)
	}
	defer k.Command("scancel", job).Run()
	local := newProject(t, "local", "inputs: [device.ll]\ntargets:\n  - kind: spir64\n", "device.ll")
	local.build()
	p := onCluster(newProject(t, "p", "inputs: [device.ll]\nexecutor: slurm\ntargets:\n  - kind: spir64\n", "device.ll"), k)
	p.env = append(p.env, "SLURM_JOB_ID="+job)
	stderr, _ := p.build("-v")
	if !strings.Contains(stderr, "sycbuild: executor: slurm, allocation "+job+" (2 CPUs on "+k.Node+")") {
		t.Errorf("the build does not say it runs in allocation %s with its 2 CPUs:\n%s", job, stderr)
	}
	sameFiles(t, "inside an allocation vs here", local.files(), p.files())
	for _, l := range strings.Split(strings.TrimSpace(string(p.read(filepath.Join("out", pipeline.StateDirName, pipeline.StepsLog)))), "\n") {
		if !strings.HasPrefix(l, job+".") {
			t.Errorf("a step outside the allocation %s: %s", job, l)
		}
	}
	if _, jobs := k.Steps(t); !slices.Contains(jobs, job+" outer RUNNING") {
		t.Errorf("the build ended the allocation it did not make: %q", jobs)
	}
}

// standInProject is the 240-module build of bench/dagbench with its
// stand-in compilers (bench/dagbench/standin, each taking 5 ms).
func standInProject(t testing.TB, name string) *project {
	cc := testenv.Tool(t, "cc")
	dir := t.TempDir()
	standin := filepath.Join(dir, "standin")
	if out, err := exec.Command(cc, "-O2", "-o", standin, filepath.Join(testenv.RepoRoot(t), "bench", "dagbench", "standin", "standin.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	var tools strings.Builder
	tools.WriteString("tools:\n")
	for _, tool := range []string{"llvm-as", "llvm-spirv", "spirv-val", "ocloc"} {
		if err := os.Symlink(standin, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
		tools.WriteString("  " + tool + ": " + filepath.Join(dir, tool) + "\n")
	}
	text, err := irgen.String(irgen.Config{Kernels: 240, Helpers: 60, Body: 10, CallsPerKernel: 2, Sources: 8, SpecConsts: 8, Unnamed: 4, Typed: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t, name, "inputs: [device.ll]\nsplit: per_kernel\n"+tools.String()+"targets:\n  - kind: spir64_gen\n    devices: [pvc]\n")
	p.write("device.ll", text)
	p.env = append(p.env, "STANDIN_MS=5")
	return p
}

// testSlurm240: the 240-module stand-in build through Slurm equals the
// local one, every module's job ran as steps; a build interrupted midway
// leaves no step in squeue, and its rebuild equals a clean build.
func testSlurm240(t *testing.T, k *slurmtest.Cluster) {
	local := standInProject(t, "local")
	_, ls := local.build()
	p := onCluster(standInProject(t, "slurm"), k)
	stderr, s := p.build("-executor", "slurm")
	if s != ls || s.jobsRan != 240 {
		t.Errorf("through Slurm %+v, here %+v; want 240 module jobs\n%s", s, ls, stderr)
	}
	want := local.files()
	sameFiles(t, "240 modules through Slurm vs here", want, p.files())
	if n := stepsRan(t, p, k, moduleOutputs("spir64_gen", ".bin", 240)); n < 240 {
		t.Errorf("%d steps for 240 module jobs", n)
	}

	// Interrupted once 20 steps ran.
	q := onCluster(standInProject(t, "interrupted"), k)
	cmd := exec.Command(testenv.Sycbuild(t), "-executor", "slurm")
	cmd.Dir, cmd.Env = q.dir, q.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stepsLog := filepath.Join(q.dir, "out", pipeline.StateDirName, pipeline.StepsLog)
	for deadline := time.Now().Add(60 * time.Second); countLines(stepsLog) < 20; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no 20 steps after 60 s:\n%s", out.String())
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("the interrupted build: %v\n%s", err, out.String())
	}
	if q.exists("out/device_images.o") {
		t.Fatal("the build finished before the interrupt; the test proves nothing")
	}
	// Nothing of it is left in Slurm: not at once, as Close waits for the
	// steps' cancelling, and not later.
	if steps, jobs := k.Steps(t); strings.Contains(strings.Join(append(steps, jobs...), "\n"), "sycbuild-"+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("right after the interrupted build: steps %q, jobs %q", steps, jobs)
	}
	noneLeft(t, k)
	if _, s := q.build("-executor", "slurm"); s.jobsCached == 0 || s.jobsRan == 0 {
		t.Errorf("the rebuild should reuse the finished jobs and run the rest: %+v", s)
	}
	sameFiles(t, "interrupted and rebuilt through Slurm vs a clean build", want, q.files())
}

func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		n++
	}
	return n
}

// failureLines are the lines of a build's output that say how it failed
// or fell back: those of its failures, isolations and warnings.
func failureLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "245") || strings.Contains(l, "alone") || strings.Contains(l, "isolated") || strings.Contains(l, "fell back") {
			out = append(out, l)
		}
	}
	return out
}

// testSlurmFailingKernel: a kernel that breaks ocloc is isolated, and
// falls back, through Slurm as here, with the same messages.
func testSlurmFailingKernel(t *testing.T, k *slurmtest.Cluster) {
	needTools(t, "llvm-as-15", "llvm-spirv-15", "ocloc")
	for _, tc := range []struct {
		name, extra string
		code        int
	}{
		{"isolation", "", 1},
		{"fallback", "    aot_fallback: spirv\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			local := aotFailProject(t, tc.extra)
			_, lerr, lcode := local.run("-k")
			p := onCluster(aotFailProject(t, tc.extra), k)
			_, serr, scode := p.run("-k", "-executor", "slurm")
			if lcode != tc.code || scode != tc.code {
				t.Fatalf("exit %d through Slurm, %d here, want %d\nthrough Slurm:\n%s\nhere:\n%s", scode, lcode, tc.code, serr, lerr)
			}
			ll, sl := failureLines(lerr), failureLines(serr)
			if len(ll) == 0 || strings.Join(ll, "\n") != strings.Join(sl, "\n") {
				t.Errorf("through Slurm:\n%s\nhere:\n%s", strings.Join(sl, "\n"), strings.Join(ll, "\n"))
			}
			if strings.Contains(serr, "srun") || strings.Contains(serr, "slurmstepd") {
				t.Errorf("Slurm's own lines reached the build's output:\n%s", serr)
			}
			if tc.code == 0 {
				sameFiles(t, "fallback through Slurm vs here", local.files(), p.files())
			}
		})
	}
}

// testSlurmToolsDiffer: a tool that answers otherwise on the nodes (here:
// inside a step) stops the build before anything runs.
func testSlurmToolsDiffer(t *testing.T, k *slurmtest.Cluster) {
	needTools(t, "llvm-spirv-15", "spirv-val")
	p := onCluster(newProject(t, "p", "inputs: [device.ll]\ntools: {llvm-spirv: ./llvm-spirv}\ntargets:\n  - kind: spir64\n", "device.ll"), k)
	p.write("llvm-spirv", "#!/bin/sh\nif [ \"$1\" = --version ]; then echo \"LLVM version 15.0.7${SLURM_STEP_ID:+ (on a node)}\"; exit; fi\nexec llvm-spirv-15 \"$@\"\n")
	_, stderr, code := p.run("-executor", "slurm")
	if code != 1 || !strings.Contains(stderr, "sycbuild: slurm: the node "+k.Node+" does not have the tools this machine has") ||
		!strings.Contains(stderr, `llvm-spirv (./llvm-spirv): here "LLVM version 15.0.7; sha256:`) || !strings.Contains(stderr, `there "LLVM version 15.0.7 (on a node); sha256:`) {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	if p.exists("out/spir64/module_0.spv") || p.exists("out/device_images.o") {
		t.Error("the build ran")
	}
	// The same build here runs.
	p.env = os.Environ()
	p.build()
}

// testSlurmNotShared: a build directory the nodes do not see stops the
// build at the start, saying so. Here sycbuild runs in a mount namespace
// of its own where a private tmpfs holding the project is mounted over the
// project's directory: slurmd's steps see the empty directory under it.
func testSlurmNotShared(t *testing.T, k *slurmtest.Cluster) {
	if out, err := exec.Command("unshare", "--mount", "--propagation", "private", "mount", "-t", "tmpfs", "none", t.TempDir()).CombinedOutput(); err != nil {
		// A container may not let even root make a mount namespace.
		testenv.SkipNotChecked(t, fmt.Sprintf("the slurm executor's check of an unshared build directory: no mount namespace here (unshare: %v: %s)", err, bytes.TrimSpace(out)))
	}
	p := onCluster(newProject(t, "p", "inputs: [device.ll]\ntargets:\n  - kind: llvm_ir\n", "device.ll"), k)
	script := `set -e; cp -r "$1" "$1.copy"; mount -t tmpfs none "$1"; cp -r "$1.copy/." "$1"; cd "$1"; exec "$2" -executor slurm`
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", p.dir, testenv.Sycbuild(t))
	cmd.Env = p.env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("the build in its own mount namespace: %v\n%s", err, out)
	}
	want := "sycbuild: slurm: the build directory " + filepath.Join(p.dir, "out") + " is not shared with the allocation's nodes (" + k.Node + "): a step could not read .sycbuild-shared-"
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "the build directory must be on a file system the nodes mount at the same path") {
		t.Errorf("the build said:\n%s\nwant:\n%s…", out, want)
	}
}

// BenchmarkSlurmBuild is the 240-module stand-in build (5 ms per stand-in
// compile) from clean, here and through a one-machine Slurm cluster with
// this machine's CPUs, one after the other in one run, each at -j the
// CPUs: the makespan of each and the steps per second through Slurm:
//
//	go test -run '^$' -bench SlurmBuild -benchtime 1x ./pipeline
func BenchmarkSlurmBuild(b *testing.B) {
	k := slurmtest.Start(b)
	j := strconv.Itoa(k.CPUs)
	var local, slurm time.Duration
	var steps int
	for range b.N {
		p := standInProject(b, "local")
		t0 := time.Now()
		p.build("-j", j)
		local += time.Since(t0)
		q := standInProject(b, "slurm")
		q.env = slices.Concat(k.Env, q.env[len(os.Environ()):])
		t0 = time.Now()
		q.build("-j", j, "-executor", "slurm")
		slurm += time.Since(t0)
		steps += countLines(filepath.Join(q.dir, "out", pipeline.StateDirName, pipeline.StepsLog))
	}
	n := time.Duration(b.N)
	b.ReportMetric((local / n).Seconds(), "s/local-build")
	b.ReportMetric((slurm / n).Seconds(), "s/slurm-build")
	b.ReportMetric(float64(steps)/slurm.Seconds(), "steps/s")
	b.Logf("240 modules at -j %s: here %.2f s, through Slurm %.2f s (%.2fx), %d steps, %.1f steps/s",
		j, (local / n).Seconds(), (slurm / n).Seconds(), float64(slurm)/float64(local), steps/b.N, float64(steps)/slurm.Seconds())
}
