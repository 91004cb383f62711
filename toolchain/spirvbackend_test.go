package toolchain

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestSPIRVBackendExtensions runs llc-22 with sycbuild's command line on a
// kernel (it must accept every extension given and write SPIR-V 1.3), and
// with each extension left out of the list (llc-22 must refuse each: the
// list leaves out exactly what it does not know).
func TestSPIRVBackendExtensions(t *testing.T) {
	llc := testenv.Tool(t, "llc-22")
	dir := t.TempDir()
	in := filepath.Join(dir, "k.ll")
	if err := os.WriteFile(in, []byte("target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k() {\n  ret void\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "k.spv")
	if msg, err := exec.Command(llc, LLCSPIRVArgs(in, out, nil)...).CombinedOutput(); err != nil {
		t.Fatalf("llc-22 %s: %v\n%s", strings.Join(LLCSPIRVArgs(in, out, nil), " "), err, msg)
	}
	if err := CheckFile(CheckSPIRV, out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if len(b) < 8 || b[6] != 1 || b[5] != 3 { // version word 0x00010300, little-endian: 00 03 01 00
		t.Errorf("SPIR-V version bytes % x, want 1.3", b[4:8])
	}
	if len(SPIRVBackendExtensions)+len(backendUnknown)+1 != len(SPIRVExtensions) {
		t.Errorf("%d backend extensions + %d unknown + -all != %d", len(SPIRVBackendExtensions), len(backendUnknown), len(SPIRVExtensions))
	}
	for name := range backendUnknown {
		msg, err := exec.Command(llc, "-mtriple="+SPIRVBackendTriple, "-filetype=obj", "--spirv-ext=+"+name, in, "-o", out).CombinedOutput()
		if err == nil || !strings.Contains(string(msg), "Unknown SPIR-V extension") {
			t.Errorf("llc-22 takes %s (%v, %s): it belongs in SPIRVBackendExtensions", name, err, msg)
		}
	}
}
