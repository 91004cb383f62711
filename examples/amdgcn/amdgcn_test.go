package amdgcn

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/wrapper/wrappertest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// kernels are the example's kernels, in the order of the modules a
// per-kernel split writes.
var kernels = []string{"_ZTS5Scale", "_ZTS5Saxpy"}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.Tool(t, name), args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestDeviceIRIsFrontEndOutput regenerates device.ll with clang-22 and
// requires it to equal the checked-in file.
func TestDeviceIRIsFrontEndOutput(t *testing.T) {
	testenv.Tool(t, "clang-22")
	dir := t.TempDir()
	for _, f := range []string{"make-device.sh", "src/amd_shim.h", "src/amd_ops.cpp"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("bash", filepath.Join(dir, "make-device.sh")).CombinedOutput(); err != nil {
		t.Fatalf("make-device.sh: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "device.ll"))
	want, _ := os.ReadFile("device.ll")
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Error("device.ll differs from what clang-22 makes now; run ./make-device.sh")
	}
}

// TestBuild builds targets.yaml and checks each module's code object with
// LLVM 22's tools, its bundle, and what the output object registers.
func TestBuild(t *testing.T) {
	for _, tool := range []string{"llc-22", "ld.lld-22", "clang-offload-bundler-22", "llvm-readobj-22", "llvm-objdump-22"} {
		testenv.Tool(t, tool)
	}
	dir := t.TempDir()
	for _, f := range []string{"targets.yaml", "device.ll"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(testenv.Sycbuild(t), "-config", filepath.Join(dir, "targets.yaml"), "-v").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj out/amdgcn/module_0.ll -o out/amdgcn/module_0.o\n",
		"ld.lld-22 -m elf64_amdgpu --no-undefined -shared out/amdgcn/module_0.o -o out/amdgcn/module_0.hsaco\n",
		"clang-offload-bundler-22 -type=o -bundle-align=4096 -targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx90a -input=/dev/null -input=out/amdgcn/module_0.hsaco -output=out/amdgcn/module_0.hipfb\n",
		"-spec-const=emulation",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the build does not run %q:\n%s", want, out)
		}
	}

	work := filepath.Join(dir, "out", "amdgcn")
	for i, k := range kernels {
		stem := filepath.Join(work, "module_"+string(rune('0'+i)))
		notes := run(t, work, "llvm-readobj-22", "--notes", stem+".hsaco")
		for _, want := range []string{"NT_AMDGPU_METADATA", ".name:           " + k + "\n", ".symbol:         " + k + ".kd\n",
			".kernarg_segment_size:", ".sgpr_count:", ".vgpr_count:", "amdhsa.target:   amdgcn-amd-amdhsa--gfx90a"} {
			if !strings.Contains(notes, want) {
				t.Errorf("%s.hsaco: the notes lack %q:\n%s", stem, want, notes)
			}
		}
		dis := run(t, work, "llvm-objdump-22", "-d", stem+".hsaco")
		if !strings.Contains(dis, "file format elf64-amdgpu") || !strings.Contains(dis, "<"+k+">:") || !strings.Contains(dis, "s_endpgm") {
			t.Errorf("%s.hsaco: llvm-objdump-22 -d does not show %s's code:\n%s", stem, k, dis)
		}
		syms := run(t, work, "llvm-objdump-22", "-t", stem+".hsaco")
		if !strings.Contains(syms, k+".kd") {
			t.Errorf("%s.hsaco has no kernel descriptor %s.kd:\n%s", stem, k, syms)
		}
		run(t, work, "clang-offload-bundler-22", "-type=o", "-unbundle", "-targets=hipv4-amdgcn-amd-amdhsa--gfx90a",
			"-input="+stem+".hipfb", "-output="+stem+".unbundled")
		a, _ := os.ReadFile(stem + ".hsaco")
		b, _ := os.ReadFile(stem + ".unbundled")
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s.hipfb does not unbundle to the code object", stem)
		}
	}

	tc := wrappertest.Native(t)
	exe := tc.Link(t, dir, "harness", true, "", []string{filepath.Join(dir, "out", "device_images.o")})
	got := tc.Run(t, exe, "")
	if n := strings.Count(got, " target \"amdgcn\"\n compile_opts \"--offload-arch=gfx90a\"\n"); n != len(kernels) {
		t.Errorf("%d images registered for amdgcn/gfx90a, want %d:\n%s", n, len(kernels), got)
	}
	for _, k := range kernels {
		if !strings.Contains(got, ` name="`+k+`" `) {
			t.Errorf("no offload entry %s:\n%s", k, got)
		}
	}
	if !strings.Contains(got, `propset 2 name="SYCL/specialization constants"`) {
		t.Errorf("Scale's image has no specialization-constant properties:\n%s", got)
	}
}
