package pipeline_test

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestOclocBatch builds 24 modules ahead of time for two devices with the
// real ocloc, each compile alone (-batch 1) and in batches of 5 (ocloc
// multi): the builds' files are the same bytes, and the batched build ran
// no compile alone.
func TestOclocBatch(t *testing.T) {
	needTools(t, "llvm-spirv-15", "spirv-val", "cc")
	ocloc := testenv.Tool(t, "ocloc")
	text, err := irgen.String(irgen.Config{Kernels: 24, Helpers: 6, Body: 6, CallsPerKernel: 2, Sources: 4, SpecConsts: 4, Unnamed: 2, Typed: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	build := func(name string, args ...string) (*project, []string) {
		t.Helper()
		// ocloc through a script that logs its command first:
		// "compile_-file" (a module), "multi_batch.txt", "compile_--help"
		// (the devices it knows), "query_…".
		p := newProject(t, name, "inputs: [device.ll]\nsplit: per_kernel\njobs: 2\ntools: {ocloc: ./ocloc}\n"+
			"targets:\n  - kind: spir64_gen\n    devices: [pvc, acm-g10]\n")
		p.write("device.ll", text)
		p.write("ocloc", "#!/bin/sh\necho \"$1_$2\" >> \"$(dirname \"$0\")/ocloc.log\"\nexec "+ocloc+" \"$@\"\n")
		stderr, s := p.build(args...)
		if s.jobsRan != 24 {
			t.Fatalf("%s: %d module jobs ran\n%s", name, s.jobsRan, stderr)
		}
		// ocloc's success lines, and ocloc multi's, are not shown.
		for _, chatter := range []string{"Build succeeded", "Command number", "Build command"} {
			if strings.Contains(stderr, chatter) {
				t.Errorf("%s: the build shows %q:\n%s", name, chatter, stderr)
			}
		}
		return p, strings.Fields(string(p.read("ocloc.log")))
	}
	alone, aloneRuns := build("alone", "-batch", "1")
	batched, batchedRuns := build("batched", "-batch", "5")
	sameFiles(t, "ocloc multi vs ocloc compile", alone.files(), batched.files())
	count := func(runs []string, what string) int {
		n := 0
		for _, r := range runs {
			if r == what {
				n++
			}
		}
		return n
	}
	if n := count(aloneRuns, "compile_-file"); n != 24 || count(aloneRuns, "multi_batch.txt") != 0 {
		t.Errorf("-batch 1: ocloc ran %q", aloneRuns)
	}
	if n := count(batchedRuns, "multi_batch.txt"); n != 5 || count(batchedRuns, "compile_-file") != 0 {
		t.Errorf("-batch 5: ocloc ran %q, want 5 batches (4 of 5 modules, 1 of 4) and no compile alone", batchedRuns)
	}
	if imgs := batched.images(); len(imgs) == 0 {
		t.Errorf("the batched build's object registers no image")
	}
}
