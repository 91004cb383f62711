package toolchain

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

func TestCommandLines(t *testing.T) {
	tests := []struct{ got, want []string }{
		{OclocArgs("m.spv", "m.bin", []string{"pvc", "acm-g10"}, []string{"-options", "-g"}),
			strings.Fields("compile -file m.spv -spirv_input -device pvc,acm-g10 -output m.bin -output_no_suffix -options -g")},
		{LLCArgs("m.ll", "m.ptx", "sm_90", nil), strings.Fields("-march=nvptx64 -mcpu=sm_90 m.ll -o m.ptx")},
		{PtxasArgs("m.ptx", "m.cubin", "sm_90a", []string{"-O3"}), strings.Fields("-arch=sm_90a m.ptx -o m.cubin -O3")},
		{FatbinaryArgs("m.ptx", "m.cubin", "m.fatbin", "sm_90", nil),
			strings.Fields("-64 --create=m.fatbin --image3=kind=elf,sm=90,file=m.cubin --image3=kind=ptx,sm=90,file=m.ptx")},
		{LLVMLinkArgs("l.ll", []string{"a.ll", "b.bc"}, nil), strings.Fields("-S -o l.ll a.ll b.bc")},
		{SPIRVValArgs("m.spv", nil), []string{"m.spv"}},
	}
	for _, tt := range tests {
		if strings.Join(tt.got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
	a := LLVMSPIRVArgs("m.bc", "m.spv", []string{"--spirv-max-version=1.3"})
	if a[len(a)-3] != "-o" || a[len(a)-1] != "--spirv-max-version=1.3" || !strings.HasPrefix(a[4], "-spirv-ext=-all,+SPV_EXT_shader_atomic_float_add,") {
		t.Errorf("llvm-spirv args: %q", a)
	}
}

// TestCommandsWithRealTools runs the spir64_gen chain as sycbuild builds it
// on a SYCL-shaped kernel, from the bitcode sycbuild writes: the DPC++
// extension list is accepted, the SPIR-V validates, and ocloc builds one
// fat binary for two devices.
func TestCommandsWithRealTools(t *testing.T) {
	ocloc := testenv.Tool(t, "ocloc")
	dir := t.TempDir()
	run := spirvModule(t, dir)
	run(ocloc, OclocArgs("m.spv", "m.bin", []string{"pvc", "acm-g10"}, nil)...)
	ar, err := exec.Command("ar", "t", filepath.Join(dir, "m.bin")).Output()
	if err != nil {
		t.Fatalf("ar t: %v", err)
	}
	if got := strings.Fields(string(ar)); strings.Join(got, " ") != "pad_0 64.12.60.7 pad_1 64.12.55.8 pad_2 generic_ir" {
		t.Errorf("ocloc fat binary members: %q", got)
	}
}

// spirvModule writes m.bc, a SYCL-shaped kernel as sycbuild writes it, and
// m.spv, its SPIR-V from llvm-spirv-15 as sycbuild runs it (spirv-val
// accepts it), into dir; run runs a tool there.
func spirvModule(t *testing.T, dir string) (run func(tool string, args ...string)) {
	spirv := testenv.Tool(t, "llvm-spirv-15")
	val := testenv.Tool(t, "spirv-val")
	ll := filepath.Join(dir, "m.ll")
	src := []byte(`target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"
define linkonce_odr spir_func i32 @helper(i32 addrspace(4)* %p) {
entry:
  %v = load i32, i32 addrspace(4)* %p, align 4
  ret i32 %v
}
define weak_odr spir_kernel void @k(i32 addrspace(1)* %out) {
entry:
  %c = addrspacecast i32 addrspace(1)* %out to i32 addrspace(4)*
  %v = call spir_func i32 @helper(i32 addrspace(4)* %c)
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %id
  store i32 %v, i32 addrspace(1)* %p, align 4
  ret void
}
declare spir_func i64 @_Z13get_global_idj(i32)
`)
	bc, err := llvmir.AssembleBitcode(ll, src, llvmir.BitcodeOptions{LLVM: 15})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.bc"), bc, 0o644); err != nil {
		t.Fatal(err)
	}
	run = func(tool string, args ...string) {
		t.Helper()
		cmd := exec.Command(tool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %q: %v\n%s", tool, args, err, out)
		}
	}
	run(spirv, LLVMSPIRVArgs("m.bc", "m.spv", nil)...)
	run(val, SPIRVValArgs("m.spv", nil)...)
	return run
}

// TestOclocMulti: the lines OclocBatchLine writes, run by the real "ocloc
// multi" where sycbuild runs them, write the bytes each compile writes
// alone, for one device and for a fat binary of two.
func TestOclocMulti(t *testing.T) {
	ocloc := testenv.Tool(t, "ocloc")
	dir := t.TempDir()
	run := spirvModule(t, dir)
	devices := [][]string{{"pvc", "acm-g10"}, {"pvc"}}
	var list strings.Builder
	for i, d := range devices {
		out := fmt.Sprintf("alone%d.bin", i)
		argv := append([]string{ocloc}, OclocArgs("m.spv", out, d, nil)...)
		run(ocloc, argv[1:]...)
		line, ok := OclocBatchLine(argv, out, strconv.Itoa(i), func(p string) string { return filepath.Join(dir, p) })
		if !ok {
			t.Fatalf("OclocBatchLine(%q) refused it", argv)
		}
		list.WriteString(line + "\n")
	}
	batch := filepath.Join(dir, "batch")
	outDir := filepath.Join(batch, OclocMultiOutputs("list.txt"))
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(batch, "list.txt"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ocloc, OclocMultiArgs("list.txt")...)
	cmd.Dir = batch
	printed, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ocloc multi: %v\n%s", err, printed)
	}
	if parts := OclocMultiSplit(printed, len(devices)); len(parts) != len(devices) || !strings.Contains(string(parts[0]), "Build succeeded for : acm-g10.") || strings.Contains(string(parts[1]), "Build command") {
		t.Errorf("ocloc multi printed, cut in %d parts:\n%s", len(parts), printed)
	}
	for i := range devices {
		alone, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("alone%d.bin", i)))
		got, err := os.ReadFile(filepath.Join(outDir, strconv.Itoa(i)))
		if err != nil || len(alone) == 0 || !bytes.Equal(got, alone) {
			t.Errorf("line %d (%q): %d bytes (%v), alone %d", i, devices[i], len(got), err, len(alone))
		}
	}
}
