package pipeline_test

import (
	"strings"
	"testing"
)

// TestPostLinkExtraOptions: a target's extra sycl-post-link options are
// read by sycl-post-link's own parser when the build is planned: a bad one
// is an error at its options: key, before anything runs; good ones are in
// the command line -n prints, after the driver's.
func TestPostLinkExtraOptions(t *testing.T) {
	const config = "inputs: [vector_ops.ll]\nsplit: per_kernel\ntargets:\n  - kind: llvm_ir\n    options:\n      sycl-post-link: %s\n"
	p := newProject(t, "p", strings.Replace(config, "%s", "[-emit-program-metadata, -O0]", 1), "vector_ops.ll")
	out, stderr, code := p.run("-n")
	if code != 0 {
		t.Fatalf("sycbuild -n: exit %d\n%s", code, stderr)
	}
	want := " sycl-post-link -device-globals -properties -spec-const=native -split=kernel -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -O0 -emit-program-metadata -o out/llvm_ir/module.table vector_ops.ll\n"
	if !strings.Contains(out, want) {
		t.Errorf("-n does not print%s in:\n%s", want, out)
	}
	if p.exists("out") {
		t.Errorf("-n wrote the build directory")
	}

	for _, c := range []struct{ options, stderr string }{
		{"[-bogus]", "targets.yaml:6:23: targets[0].options.sycl-post-link: sycl-post-link: Unknown command line argument '-bogus'.  Try: 'sycl-post-link --help'\n"},
		{"[-split=source]", "targets.yaml:6:23: targets[0].options.sycl-post-link: sycl-post-link: for the --split option: may only occur zero or one times!\n"},
		{"[-o, x.table]", "targets.yaml:6:23: targets[0].options.sycl-post-link: the build names sycl-post-link's outputs (-o) and input itself\n"},
		{"[other.ll]", "targets.yaml:6:23: targets[0].options.sycl-post-link: the build names sycl-post-link's outputs (-o) and input itself\n"},
		{"[--help]", "targets.yaml:6:23: targets[0].options.sycl-post-link: --help and --version are not options for a build\n"},
	} {
		p.write("targets.yaml", strings.Replace(config, "%s", c.options, 1))
		p.expectFailure(2, c.stderr)
	}
}
