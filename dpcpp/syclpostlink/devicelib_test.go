package syclpostlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// The bfloat16 device libraries ship as bitcode (DPC++ installs
// libsycl-fallback-bfloat16.bc and libsycl-native-bfloat16.bc): a module
// that declares one of their functions gets both as modules of their own.
func TestBF16DeviceLibsFromBitcode(t *testing.T) {
	as := testenv.Tool(t, "llvm-as-19")
	dir := t.TempDir()
	libs := filepath.Join(dir, "lib")
	os.Mkdir(libs, 0o755)
	for _, name := range []string{"fallback", "native"} {
		src := `target triple = "spir64-unknown-unknown"
define spir_func i16 @__devicelib_ConvertFToBF16INTEL(ptr addrspace(4) %f) {
  ret i16 7
}
!bf16_lib = !{!0}
!0 = !{!"` + name + `"}
`
		ll := filepath.Join(dir, name+".ll")
		os.WriteFile(ll, []byte(src), 0o644)
		if out, err := exec.Command(as, ll, "-o", filepath.Join(libs, "libsycl-"+name+"-bfloat16.bc")).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", as, err, out)
		}
	}
	input := filepath.Join(dir, "k.ll")
	os.WriteFile(input, []byte(`target triple = "spir64-unknown-unknown"
declare spir_func i16 @__devicelib_ConvertFToBF16INTEL(ptr addrspace(4))
define spir_kernel void @k(ptr addrspace(4) %f) #0 {
  %r = call spir_func i16 @__devicelib_ConvertFToBF16INTEL(ptr addrspace(4) %f)
  ret void
}
attributes #0 = { "sycl-module-id"="k.cpp" }
`), 0o644)
	var stderr bytes.Buffer
	table := filepath.Join(dir, "out.table")
	args := []string{"-split=kernel", "-symbols", "-S", "-device-lib-dir=" + libs, "-o", table, input}
	if code := Main("sycl-post-link", args, clopt.Stdio{Out: &stderr, Err: &stderr}); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "fail to load") {
		t.Errorf("the libraries were not loaded:\n%s", stderr.String())
	}
	tb, err := filetable.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := tb.Column("Code")
	if len(code) != 3 {
		t.Fatalf("table lists %v, want the kernel's module and the two libraries", code)
	}
	for i, name := range []string{"fallback", "native"} {
		b, err := os.ReadFile(code[1+i])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `!{!"`+name+`"}`) || !strings.Contains(string(b), "define spir_func i16 @__devicelib_ConvertFToBF16INTEL") {
			t.Errorf("module %s is not the %s library:\n%s", code[1+i], name, b)
		}
	}
}
