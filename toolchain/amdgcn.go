package toolchain

import (
	"io"
	"strings"
)

// AMDGCNLLVM is the LLVM generation of the tools an amdgcn target runs
// (llc-22, ld.lld-22, clang-offload-bundler-22): they read the IR of
// LLVM 15 to 22, and LLVM 22's AMDGPU backend knows the current GPUs.
const AMDGCNLLVM = 22

// AMDGCNTriple is the target of AMD GPU code objects (HSA).
const AMDGCNTriple = "amdgcn-amd-amdhsa"

// AMDGCNLLCArgs compiles LLVM IR into a relocatable AMD GPU object for
// arch (a target ID: gfx90a, gfx90a:xnack+), as the DPC++ driver's backend
// and assembler steps do for its HIP target.
func AMDGCNLLCArgs(in, out, arch string, extra []string) []string {
	cpu, features := splitTargetID(arch)
	args := []string{"-mtriple=" + AMDGCNTriple, "-mcpu=" + cpu}
	if features != "" {
		args = append(args, "-mattr="+features)
	}
	args = append(args, "-filetype=obj", in, "-o", out)
	return append(args, extra...)
}

// LLDArgs links one AMD GPU object into a code object (a shared ELF
// object, the form the HIP runtime loads), refusing undefined symbols, as
// the DPC++ driver's device link does.
func LLDArgs(in, out string, extra []string) []string {
	args := []string{"-m", "elf64_amdgpu", "--no-undefined", "-shared", in, "-o", out}
	return append(args, extra...)
}

// BundlerArgs wraps a code object into a HIP offload bundle (the DPC++
// driver's hip-fatbin step): an empty host part and the code object for
// arch, aligned to 4 KiB; host is the host triple.
func BundlerArgs(in, out, arch, host string, extra []string) []string {
	args := []string{"-type=o", "-bundle-align=4096",
		"-targets=host-" + host + ",hipv4-" + AMDGCNTriple + "--" + arch,
		"-input=/dev/null", "-input=" + in, "-output=" + out}
	return append(args, extra...)
}

// splitTargetID splits an AMD target ID into the processor and llc's
// -mattr features: "gfx90a:xnack+" → "gfx90a", "+xnack".
func splitTargetID(id string) (cpu, features string) {
	parts := strings.Split(id, ":")
	var fs []string
	for _, f := range parts[1:] {
		if n := len(f); n > 1 {
			fs = append(fs, f[n-1:]+f[:n-1])
		}
	}
	return parts[0], strings.Join(fs, ",")
}

// bundleMagic starts every clang-offload-bundler object bundle.
const bundleMagic = "__CLANG_OFFLOAD_BUNDLE__"

// CheckELF checks that a file starts like a 64-bit ELF object (a Check);
// it is the output check of llc when llc writes an AMD GPU object
// (OutputCheck("llc") checks PTX).
func CheckELF(head []byte, size int64, r io.ReaderAt) error { return checkELF(head, size, r) }
