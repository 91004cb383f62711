package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// makeTools skips the test (fails it in CI) unless the make example's tools
// are installed: make, cc and llvm-link-15 (the example has two device
// inputs).
func makeTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"make", "cc", "llvm-link-15"} {
		testenv.Tool(t, tool)
	}
}

// makeRun runs make in dir with sycbuild and the arguments given and
// returns its output.
func makeRun(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	args = append([]string{"--no-print-directory", "SYCBUILD=" + testenv.Sycbuild(t)}, args...)
	return run(t, dir, env, "make", args...)
}

// upToDate requires "make -q" to find nothing to do.
func upToDate(t *testing.T, dir string) {
	t.Helper()
	if out, err := runErr(dir, nil, "make", "-q", "SYCBUILD="+testenv.Sycbuild(t)); err != nil {
		t.Fatalf("make -q: the build is not up to date after a build (%v)\n%s", err, out)
	}
}

// ran reports which steps a make run ran, from the commands it printed.
type ran struct{ hostCompile, sycbuild, finalLink bool }

func steps(out string) ran {
	return ran{
		hostCompile: len(lines(out, " -c ")) > 0,
		sycbuild:    len(lines(out, "-config ")) > 0,
		finalLink:   len(lines(out, "-o out/app ")) > 0,
	}
}

// TestMakeExample builds examples/make from a fresh copy with make -j4,
// runs the program, and checks what each kind of edit rebuilds.
func TestMakeExample(t *testing.T) {
	makeTools(t)
	dir := fresh(t, "make")

	// make -n runs the sycbuild line ('+') but passes -n on: nothing is
	// written, and sycbuild prints its commands instead.
	out := makeRun(t, dir, nil, "-n")
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil || !strings.Contains(out, "clang-offload-wrapper -o out/device_images.o") {
		t.Fatalf("make -n built something, or sycbuild did not print its commands:\n%s", out)
	}

	out = makeRun(t, dir, nil, "-j4")
	if got, want := steps(out), (ran{true, true, true}); got != want {
		t.Fatalf("first build ran %+v, want %+v\n%s", got, want, out)
	}
	app := run(t, dir, nil, "./out/app")
	for _, k := range []string{"_ZTSZ4mainE5Scale", "_ZTSZ4mainE5Saxpy", "_ZTSZ4mainE6Square", "_ZTSZ4mainE6Negate", "_ZTSZ4mainE10SumSquares"} {
		if len(lines(app, "llvm_spir64 none")) != 5 || !strings.Contains(app, k) {
			t.Fatalf("the program does not show five LLVM IR images with kernel %s:\n%s", k, app)
		}
	}
	upToDate(t, dir)
	if d, want := string(readFile(t, filepath.Join(dir, "out", "device_images.o.d"))), "out/device_images.o: \\\n  targets.yaml \\\n  device/scale.ll \\\n  device/stats.ll\n"; !strings.HasPrefix(d, want) {
		t.Errorf("the depfile is %q, want it to start with %q", d, want)
	}

	for _, tc := range []struct {
		touch string
		want  ran
	}{
		{"device/stats.ll", ran{sycbuild: true, finalLink: true}},
		{"main.c", ran{hostCompile: true, finalLink: true}},
		{"app.h", ran{hostCompile: true, finalLink: true}},
		{"targets.yaml", ran{sycbuild: true, finalLink: true}},
	} {
		touch(t, filepath.Join(dir, tc.touch))
		out := makeRun(t, dir, nil, "-j4")
		if got := steps(out); got != tc.want {
			t.Errorf("after touching %s make ran %+v, want %+v\n%s", tc.touch, got, tc.want, out)
		}
		upToDate(t, dir)
	}
}

// TestMakeJobserver proves that make -j4 runs at most 4 jobs in all, make's
// recipes and sycbuild's tools together: every recipe line runs through a
// logging shell (SHELL=…), every external tool through a logging wrapper
// the config's tools: names, and the logged spans never overlap more than
// 4 deep. The config asks for jobs: 8, which sycbuild must not use under
// make's jobserver.
func TestMakeJobserver(t *testing.T) {
	makeTools(t)
	real := map[string]string{}
	for role, tool := range map[string]string{"llvm-link": "llvm-link-15", "llvm-spirv": "llvm-spirv-15", "spirv-val": "spirv-val"} {
		real[role] = testenv.Tool(t, tool)
	}
	dir := fresh(t, "make")
	shell := writeJobScripts(t, dir, real)
	cfg := string(readFile(t, filepath.Join(dir, "targets.yaml"))) + "jobs: 8\ntools:\n"
	for _, role := range []string{"llvm-link", "llvm-spirv", "spirv-val"} {
		cfg += "  " + role + ": jobwrap/" + role + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "jobs.log")
	out := makeRun(t, dir, []string{"JOBLOG=" + log}, "-j4", "SHELL="+shell, "CONFIG=jobs.yaml")
	if strings.Contains(out, "jobserver") {
		t.Errorf("sycbuild did not use make's jobserver:\n%s", out)
	}
	spans, err := readJobLog(log)
	if err != nil {
		t.Fatal(err)
	}
	tools := 0
	for _, s := range spans {
		if s.kind == "tool" || s.kind == "piped" {
			tools++
		}
	}
	// llvm-link, then llvm-spirv and spirv-val for each of the five
	// modules (more if sycbuild asked for versions).
	if tools < 11 {
		t.Fatalf("only %d tool runs were logged, want at least 11\n%s", tools, out)
	}
	peak := peakJobs(spans)
	t.Logf("%d jobs logged; at most %d at once, %d of them sycbuild's tools", len(spans), peak.total, peak.tools)
	if peak.total > 4 {
		t.Errorf("make -j4 ran %d jobs at once", peak.total)
	}
	if peak.tools < 2 {
		t.Errorf("sycbuild never ran two tools at once (it should take job slots from make's jobserver)")
	}
}
