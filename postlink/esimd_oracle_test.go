package postlink

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestLowerESIMDOracle: the lowered ESIMD module is valid LLVM IR of the
// input's generation, translates to SPIR-V with llvm-spirv-15 and the
// vector-compute extension as the DPC++ driver runs it (GenX intrinsics
// passed through as imports), passes spirv-val, carries the kernel's
// named-barrier count and SLM size as execution modes and its arguments'
// kinds as decorations, and ocloc's vector backend compiles it for pvc.
func TestLowerESIMDOracle(t *testing.T) {
	for _, tool := range []string{"llvm-as-15", "llvm-spirv-15", "spirv-val"} {
		testenv.Tool(t, tool)
	}
	dir := t.TempDir()
	// The kernel takes a pointer and a value.
	src := strings.Replace(esimdBuiltins, "@esimdK() #0", "@esimdK(ptr addrspace(1) noundef %p, i32 %n) #0", 1)
	if _, err := runTool(t, dir, src, "-split=auto", "-split-esimd", "-lower-esimd", "-S", "-o", "o.table"); err != nil {
		t.Fatal(err)
	}
	const args = `@esimdK(ptr addrspace(1) noundef "VCArgumentDesc"="svmptr_t" "VCArgumentIOKind"="0" "VCArgumentKind"="0" %p, i32 "VCArgumentDesc"="" "VCArgumentIOKind"="0" "VCArgumentKind"="0" %n)`
	if ir := readFile(t, "o_0.esimd.ll"); !strings.Contains(ir, args) {
		t.Errorf("kernel arguments, want %s in\n%s", args, ir)
	}
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	bc, spv := filepath.Join(dir, "e.bc"), filepath.Join(dir, "e.spv")
	run("llvm-as-15", "o_0.esimd.ll", "-o", bc)
	run("llvm-spirv-15", "--spirv-ext=+all", "-spirv-allow-unknown-intrinsics=llvm.genx.", bc, "-o", spv)
	run("spirv-val", spv)
	text := run("llvm-spirv-15", "-to-text", spv, "-o", "-")
	for _, want := range []string{
		`Capability VectorComputeINTEL`,
		`Extension "SPV_INTEL_vector_compute"`,
		`EntryPoint 6 \d+ "esimdK"`,
		`ExecutionMode \d+ 6417 5 \n`,    // NamedBarrierCountINTEL
		`ExecutionMode \d+ 5618 1024 \n`, // SharedLocalMemorySizeINTEL
		`Decorate (\d+) LinkageAttributes "helper" Export \n\s*3 Decorate \d+ VectorComputeFunctionINTEL`,
		`LinkageAttributes "llvm.genx.barrier" Import`,
		`Decorate \d+ FuncParamIOKind 0 \n(.*\n)*.*Decorate \d+ FuncParamIOKind 0 \n`,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("SPIR-V lacks %q:\n%s", want, text)
		}
	}
	if !testenv.Want(t, "the ESIMD module compiled by ocloc's vector backend for pvc", "ocloc") {
		return
	}
	out, err := exec.Command("ocloc", "compile", "-q", "-spirv_input", "-file", spv, "-device", "pvc", "-options", "-vc-codegen", "-out_dir", dir, "-output", "e").CombinedOutput()
	if err != nil {
		t.Fatalf("ocloc (Debian's has the vector-compute backend, -vc-codegen): %v\n%s", err, out)
	}
	bins, _ := filepath.Glob(filepath.Join(dir, "e*.bin"))
	if len(bins) != 1 {
		t.Fatalf("ocloc wrote %v", bins)
	}
	fi, err := os.Stat(bins[0])
	if err != nil || fi.Size() == 0 {
		t.Fatalf("ocloc's binary: %v", err)
	}
	t.Logf("ocloc: %s, %d bytes", filepath.Base(bins[0]), fi.Size())
}
