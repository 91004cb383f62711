// Tests of the NVIDIA GPU example that run on any host: the runtime's
// spec-constant checker (it must catch a wrong override offset) and the
// front-end recipe that makes device.ll. The GPU run itself is gpu-test.sh.
package cuda

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestCheckerCatchesWrongOffset(t *testing.T) {
	cc := testenv.Tool(t, "cc")
	bin := filepath.Join(t.TempDir(), "checker")
	if out, err := exec.Command(cc, "-Wall", "-Werror", "-o", bin, "runtime/checker_test.c", "runtime/speccheck.c").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("checker test failed: %v", err)
	}
	for _, want := range []string{"skew 0: 0 mismatches", "shifted struct: 4 mismatches", "checker test passed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// TestDeviceIRIsFrontEndOutput regenerates device.ll with clang-19 and
// llvm-link-19, and device22.ll with clang-22 and llvm-link-22, and
// requires them to equal the checked-in files.
func TestDeviceIRIsFrontEndOutput(t *testing.T) {
	for _, tool := range []string{"clang-19", "llvm-link-19", "clang-22", "llvm-link-22"} {
		testenv.Tool(t, tool)
	}
	dir := t.TempDir()
	for _, f := range []string{"make-device-ll.sh", "sycl_shim.h", "tu1.cu", "tu2.cu"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("bash", filepath.Join(dir, "make-device-ll.sh")).CombinedOutput(); err != nil {
		t.Fatalf("make-device-ll.sh: %v\n%s", err, out)
	}
	for _, f := range []string{"device.ll", "device22.ll"} {
		got, _ := os.ReadFile(filepath.Join(dir, f))
		want, _ := os.ReadFile(f)
		if len(want) == 0 || string(got) != string(want) {
			t.Errorf("%s differs from what the front end makes now; run ./make-device-ll.sh", f)
		}
	}
}

// TestGPU runs gpu-test.sh where an NVIDIA GPU and CUDA are: every kernel
// of both splits launched with default and overridden spec constants, every
// value checked. Elsewhere (CI has no GPU) it says plainly what it did not
// check.
func TestGPU(t *testing.T) {
	if _, err := exec.LookPath("nvidia-smi"); err != nil {
		testenv.SkipNotChecked(t, "the kernels' results on an NVIDIA GPU (no nvidia-smi on this machine); run examples/cuda/gpu-test.sh where there is one (CUDA 13: ptxas, fatbinary, libcuda)")
	}
	out, err := exec.Command("bash", "gpu-test.sh", testenv.Sycbuild(t)).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("gpu-test.sh: %v", err)
	}
	for _, want := range []string{"3 images, 6 kernel launches checked, 0 mismatches",
		"1 images, 6 kernel launches checked, 0 mismatches",
		"gpu-test: passed: LLVM 19 and LLVM 22 input, per_kernel and per_source give the same results"} {
		if n := strings.Count(string(out), want); n == 0 || (strings.Contains(want, "images") && n != 2) {
			t.Errorf("gpu-test.sh output has %q %d times", want, n)
		}
	}
}

// Stand-ins for ptxas and fatbinary (CUDA is not packaged in Debian main):
// ptxas writes an ELF header (no section headers) and then the PTX;
// fatbinary a fat binary header (nothing after it, it says) and then the
// files --image3 names.
const (
	fakePtxas = "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ptxas: stand-in'; exit 0; }\n" +
		"printf '\\177ELF\\002\\001' > \"$4\"\nhead -c 58 /dev/zero >> \"$4\"\ncat \"$2\" >> \"$4\"\n"
	fakeFatbinary = "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'fatbinary: stand-in'; exit 0; }\n" +
		"out=${2#--create=}\nprintf '\\120\\355\\125\\272\\001\\000\\020\\000\\000\\000\\000\\000\\000\\000\\000\\000' > \"$out\"\n" +
		"for a in \"$3\" \"$4\"; do cat \"${a##*file=}\" >> \"$out\"; done\n"
)

// TestLLVM22Route builds device22.ll (clang-22's IR) for nvptx64 with the
// real llc and stand-ins for ptxas and fatbinary: sycbuild takes llc-22
// for it, as it takes llc-22's SPIR-V backend for spir64, and llc-22's PTX
// is for sm_90; an llc named under tools: is what runs, and one too old for
// the input is refused naming both.
func TestLLVM22Route(t *testing.T) {
	testenv.Tool(t, "llc-22")
	testenv.Tool(t, "llc-19")
	sycbuild := testenv.Sycbuild(t)
	dir := t.TempDir()
	b, err := os.ReadFile("device22.ll")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"device22.ll": string(b), "fake/ptxas": fakePtxas, "fake/fatbinary": fakeFatbinary} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := func(llc string) (string, error) {
		t.Helper()
		cfg := "inputs: [device22.ll]\nsplit: per_kernel\ntools: {ptxas: ./fake/ptxas, fatbinary: ./fake/fatbinary" + llc + "}\n" +
			"targets:\n  - kind: nvptx64\n    arch: sm_90\n"
		if err := os.WriteFile(filepath.Join(dir, "targets.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(sycbuild, "-config", filepath.Join(dir, "targets.yaml"), "-v").CombinedOutput()
		return string(out), err
	}

	out, err := build("")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "llc-22 -march=nvptx64 -mcpu=sm_90 out/nvptx64/module_0.ll -o out/nvptx64/module_0.ptx") {
		t.Errorf("the build does not run llc-22:\n%s", out)
	}
	table, err := os.ReadFile(filepath.Join(dir, "out/nvptx64/images.table"))
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(strings.TrimSpace(string(table)), "\n"); len(rows) != 4 || !strings.HasSuffix(strings.Split(rows[1], "|")[0], ".fatbin") {
		t.Errorf("images.table, want three fat binaries:\n%s", table)
	}
	for i := 0; i < 3; i++ {
		ptx, _ := os.ReadFile(filepath.Join(dir, "out/nvptx64", "module_"+string(rune('0'+i))+".ptx"))
		if !strings.Contains(string(ptx), ".target sm_90") || !strings.Contains(string(ptx), ".entry _Z") {
			t.Errorf("module_%d.ptx is not llc's PTX for sm_90 with a kernel:\n%.300s", i, ptx)
		}
	}

	// A configured llc runs as configured.
	llc22, _ := filepath.EvalSymlinks(testenv.Tool(t, "llc-22"))
	if out, err := build(", llc: " + llc22); err != nil || !strings.Contains(out, llc22+" -march=nvptx64") {
		t.Errorf("tools: {llc: %s} is not what runs (%v):\n%s", llc22, err, out)
	}
	// One too old for the input names both.
	out, err = build(", llc: llc-19")
	want := `target nvptx64 cannot use the inputs: llc is llc-19 (LLVM 19), which reads IR up to LLVM 19, and device22.ll needs LLVM 22 ("captures(" at line`
	if err == nil || !strings.Contains(out, want) || !strings.Contains(out, "(llc-22 reads it)") {
		t.Errorf("llc-19 on LLVM 22 IR (%v):\n%s\nwant it to contain %s", err, out, want)
	}
}
