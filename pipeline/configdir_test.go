package pipeline_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestConfiguredToolFromParent: started from the config's parent
// directory, the build finds a tool the config names by a relative path
// (relative to the config's directory), prints it as the config names it,
// and runs it in the config's directory.
func TestConfiguredToolFromParent(t *testing.T) {
	needTools(t, "llvm-spirv-15")
	p := newProject(t, "p", "inputs: [device.ll]\nsplit: per_kernel\ntools: {spirv-val: ./fake/spirv-val}\ntargets:\n  - kind: spir64\n    spirv: translator\n", "device.ll")
	p.write("fake/spirv-val", "#!/bin/sh\npwd >> val.log\n")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(testenv.Sycbuild(t), args...)
		cmd.Dir = filepath.Dir(p.dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sycbuild %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run("-n", "-config", "p/targets.yaml"); !strings.Contains(out, "cd p\n") || !strings.Contains(out, " -- ./fake/spirv-val module.spv\n") {
		t.Errorf("-n from the parent directory:\n%s", out)
	}
	run("-config", "p/targets.yaml")
	log := strings.Fields(string(p.read("val.log")))
	if len(log) == 0 {
		t.Fatal("the configured spirv-val did not run")
	}
	real, err := filepath.EvalSymlinks(p.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range log {
		if d != real && d != p.dir {
			t.Errorf("spirv-val ran in %s, not in the config's directory %s", d, p.dir)
		}
	}
}
