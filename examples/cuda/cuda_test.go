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
// llvm-link-19 and requires it to equal the checked-in file.
func TestDeviceIRIsFrontEndOutput(t *testing.T) {
	testenv.Tool(t, "clang-19")
	testenv.Tool(t, "llvm-link-19")
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
	got, _ := os.ReadFile(filepath.Join(dir, "device.ll"))
	want, _ := os.ReadFile("device.ll")
	if string(got) != string(want) {
		t.Errorf("device.ll differs from what clang-19 makes now; run ./make-device-ll.sh")
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
		"gpu-test: passed: per_kernel and per_source give the same results"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("gpu-test.sh output lacks %q", want)
		}
	}
}
