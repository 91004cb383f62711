package pipeline_test

import (
	"strings"
	"testing"
)

// standInOcloc is an ocloc that fails like a real one does on some
// kernels, with status 245 and no message, when the SPIR-V it is given
// holds the kernel named in $BAD_KERNEL; otherwise it runs the real ocloc.
const standInOcloc = `#!/bin/sh
for a; do
  case "$a" in
  *.spv) if grep -q "$BAD_KERNEL" "$a"; then exit 245; fi ;;
  esac
done
exec ocloc "$@"
`

const aotFailConfig = `inputs: [device.ll]
split: per_source
tools: {ocloc: ./ocloc-standin}
targets:
  - kind: spir64_gen
    devices: [pvc]
    spirv: translator
`

func aotFailProject(t *testing.T, extra string) *project {
	p := newProject(t, "p", aotFailConfig+extra, "device.ll")
	p.write("ocloc-standin", standInOcloc)
	p.env = append(p.env, "BAD_KERNEL=_ZTSZ4mainE6VecAdd")
	return p
}

// TestAOTIsolation: ocloc fails on a module of two kernels; the build
// names the kernel that fails alone, with the command's status, and with
// -k builds the other module.
func TestAOTIsolation(t *testing.T) {
	needTools(t, "llvm-as-15", "llvm-spirv-15", "ocloc")
	p := aotFailProject(t, "")
	_, stderr, code := p.run("-k")
	if code == 0 {
		t.Fatalf("the build succeeded:\n%s", stderr)
	}
	for _, want := range []string{
		"(exit status 245)",
		"isolated: 1 of its 2 kernels fail alone: _ZTSZ4mainE6VecAdd\n",
		"the first alone:",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the failure does not say %q:\n%s", want, stderr)
		}
	}
	if !p.exists("out/spir64_gen/module_1.bin") || p.exists("out/spir64_gen/module_0.bin") {
		t.Errorf("with -k the good module is built and the bad one is not")
	}
}

// TestAOTFallback: with aot_fallback: spirv the module whose ocloc fails
// is embedded as SPIR-V for spir64_gen, loudly; the program's runtime
// registration sees exactly that image as SPIR-V and the other as native.
func TestAOTFallback(t *testing.T) {
	needTools(t, "llvm-as-15", "llvm-spirv-15", "ocloc", "cc")
	p := aotFailProject(t, "    aot_fallback: spirv\n")
	stderr, _ := p.build()
	for _, want := range []string{
		"warning: [spir64_gen] ocloc out/spir64_gen/module_0.ll: ocloc failed (exit status 245); out/spir64_gen/module_0.spv stands in",
		"sycbuild: 1 module fell back to SPIR-V",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the build does not say %q:\n%s", want, stderr)
		}
	}
	imgs := strings.Join(p.images(), "\n")
	for _, want := range []string{"image 0: target spir64_gen, format SPIR-V", "image 1: target spir64_gen, format native"} {
		if !strings.Contains(imgs, want) {
			t.Errorf("the program does not see %q:\n%s", want, imgs)
		}
	}
}
