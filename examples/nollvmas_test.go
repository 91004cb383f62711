package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestNoLLVMAsRuns traces every program sycbuild starts (strace -f -e
// trace=execve) in a whole quickstart build (llvm_ir, spir64 and, with
// ocloc, spir64_gen) and in the DPC++ driver's sycl-post-link line on
// bitcode, with llvm-as-15, -19 and -22 on PATH: none of them runs, since
// sycbuild writes its bitcode itself. That the trace sees the build's
// processes is checked too: llvm-spirv-15 runs once per module.
func TestNoLLVMAsRuns(t *testing.T) {
	strace := testenv.Tool(t, "strace")
	as := testenv.Tool(t, "llvm-as-15")
	testenv.Tool(t, "llvm-spirv-15")
	sycbuild := testenv.Sycbuild(t)
	dir := fresh(t, "quickstart")

	// execs returns the programs the traced command ran, by base name,
	// from strace's logs: one per process (-ff), so that no execve line is
	// split in two by another process's call (strace -f writes such a call
	// as "<unfinished ...>" and "<... execve resumed>", which would not be
	// counted).
	execs := func(log string) map[string]int {
		t.Helper()
		logs, err := filepath.Glob(log + ".*")
		if err != nil || len(logs) == 0 {
			t.Fatalf("no strace logs %s.*: %v", log, err)
		}
		n := map[string]int{}
		for _, l := range logs {
			for _, m := range execve.FindAllStringSubmatch(string(readFile(t, l)), -1) {
				n[filepath.Base(m[1])]++
			}
		}
		return n
	}
	llvmAs := func(n map[string]int) int {
		c := 0
		for name, k := range n {
			if name == "llvm-as" || strings.HasPrefix(name, "llvm-as-") {
				c += k
			}
		}
		return c
	}

	buildLog := filepath.Join(t.TempDir(), "build.strace")
	run(t, dir, nil, strace, "-ff", "-q", "-e", "trace=execve", "-o", buildLog, sycbuild, "-config", "targets.yaml")
	n := execs(buildLog)
	table, err := os.ReadFile(filepath.Join(dir, "out", "llvm_ir", "module.table"))
	if err != nil {
		t.Fatal(err)
	}
	modules := strings.Count(string(table), "\n") - 1
	if llvmAs(n) != 0 || n["llvm-spirv-15"] < modules || modules < 2 {
		t.Errorf("the quickstart build ran %d llvm-as and %d llvm-spirv-15 for %d modules: %v", llvmAs(n), n["llvm-spirv-15"], modules, n)
	}
	t.Logf("quickstart build: %d programs started, %d llvm-as, %d llvm-spirv-15", len(n), llvmAs(n), n["llvm-spirv-15"])

	// The driver's line, on bitcode as the driver hands it over.
	run(t, dir, nil, as, "device.ll", "-o", "app.bc")
	lineLog := filepath.Join(t.TempDir(), "line.strace")
	run(t, dir, nil, strace, "-ff", "-q", "-e", "trace=execve", "-o", lineLog, sycbuild, "sycl-post-link",
		"-O2", "-device-globals", "-properties", "-spec-const=native", "-split=auto", "-emit-only-kernels-as-entry-points",
		"-emit-param-info", "-symbols", "-emit-exported-symbols", "-emit-imported-symbols", "-split-esimd", "-lower-esimd",
		"-o", "app.table", "app.bc")
	n = execs(lineLog)
	if llvmAs(n) != 0 || n[filepath.Base(sycbuild)] != 1 || len(n) != 1 {
		t.Errorf("the driver's line ran %v, want sycbuild alone", n)
	}
	if head := readHead(t, filepath.Join(dir, "app_0.bc")); !strings.HasPrefix(head, "BC\xc0\xde") {
		t.Errorf("app_0.bc is not bitcode")
	}
}

// execve matches a successful execve in strace's log and captures the
// program's path.
var execve = regexp.MustCompile(`(?m)^execve\("([^"]+)", .*\) = 0$`)
