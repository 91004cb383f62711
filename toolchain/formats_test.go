package toolchain

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestOutputChecks runs the real tools and checks that their outputs pass
// and that the same outputs emptied, cut short or swapped fail.
func TestOutputChecks(t *testing.T) {
	dir := t.TempDir()
	at := func(n string) string { return filepath.Join(dir, n) }
	run := func(tool string, args ...string) {
		t.Helper()
		if out, err := exec.Command(testenv.Tool(t, tool), args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tool, err, out)
		}
	}
	os.WriteFile(at("k.ll"), []byte("target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64\"\n"+
		"target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k(i32 addrspace(1)* %p) {\n  store i32 1, i32 addrspace(1)* %p\n  ret void\n}\n"), 0o644)
	run("llvm-link-15", "-S", "-o", at("linked.ll"), at("k.ll"))
	run("llvm-as-15", at("k.ll"), "-o", at("k.bc"))
	run("llvm-spirv-15", at("k.bc"), "-o", at("k.spv"))
	run("ocloc", "compile", "-file", at("k.spv"), "-spirv_input", "-device", "pvc", "-output", at("one.bin"), "-output_no_suffix", "-q")
	run("ocloc", "compile", "-file", at("k.spv"), "-spirv_input", "-device", "pvc,acm-g10", "-output", at("fat.bin"), "-output_no_suffix", "-q")
	good := map[configs.Tool]string{"llvm-link": "linked.ll", "llvm-as": "k.bc", "llvm-spirv": "k.spv", "ocloc": "one.bin"}
	for role, f := range good {
		if err := CheckFile(OutputCheck(role), at(f)); err != nil {
			t.Errorf("%s's %s: %v", role, f, err)
		}
	}
	if err := CheckFile(OutputCheck("ocloc"), at("fat.bin")); err != nil {
		t.Errorf("ocloc's fat binary: %v", err)
	}
	cut := func(src string, n int) string {
		b, _ := os.ReadFile(at(src))
		name := at("cut-" + src)
		os.WriteFile(name, b[:min(n, len(b))], 0o644)
		return name
	}
	for _, tc := range []struct {
		role       configs.Tool
		file, want string
	}{
		{"ocloc", cut("one.bin", 2000), "truncated"},
		{"ocloc", cut("fat.bin", 3000), "truncated"},
		{"ocloc", at("k.spv"), "not an ELF object or an ocloc fat binary"},
		{"llvm-spirv", at("k.bc"), "not a SPIR-V module"},
		{"llvm-as", at("k.spv"), "not LLVM bitcode"},
		{"llvm-link", at("k.bc"), "not LLVM IR text"},
		{"ptxas", cut("one.bin", 100), "truncated"},
		{"fatbinary", at("one.bin"), "not a CUDA fat binary"},
		{"llc", at("k.ll"), "not PTX"},
	} {
		err := CheckFile(OutputCheck(tc.role), tc.file)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s check of %s: %v, want %q", tc.role, filepath.Base(tc.file), err, tc.want)
		}
	}
	// A fat binary holding what its header says passes; cut short, it fails.
	fat := append([]byte{0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 4, 0, 0, 0, 0, 0, 0, 0}, "data"...)
	os.WriteFile(at("f.fatbin"), fat, 0o644)
	os.WriteFile(at("g.fatbin"), fat[:18], 0o644)
	if err := CheckFile(OutputCheck("fatbinary"), at("f.fatbin")); err != nil {
		t.Error(err)
	}
	if err := CheckFile(OutputCheck("fatbinary"), at("g.fatbin")); err == nil {
		t.Error("a cut fat binary passed")
	}
}
