package postlink

import (
	"strings"
	"testing"
)

// TestSanitizerMetadata: a sanitizer's kernel metadata global gets the
// host-access decoration and, unless it has one, its size as a device
// global; other globals are left alone.
func TestSanitizerMetadata(t *testing.T) {
	for _, c := range []struct{ global, want string }{
		{
			`@__TsanKernelMetadata = addrspace(1) global [1 x { i64, i64 }] [{ i64, i64 } { i64 0, i64 58 }]`,
			`@__TsanKernelMetadata = addrspace(1) global [1 x { i64, i64 }] [{ i64, i64 } { i64 0, i64 58 }], !spirv.Decorations !{!{i32 6147, i32 0, !"_Z20__SanitizerKernelMetadata"}} "sycl-device-global-size"="16"` + "\n",
		},
		{
			`@__AsanKernelMetadata = addrspace(1) global i32 0, align 4 #0` + "\nattributes #0 = { \"sycl-device-global-size\"=\"4\" }",
			`@__AsanKernelMetadata = addrspace(1) global i32 0, align 4, !spirv.Decorations !{!{i32 6147, i32 0, !"_Z20__SanitizerKernelMetadata"}} #0` + "\n",
		},
	} {
		src := "target triple = \"spir64-unknown-unknown\"\n\n" + c.global + "\n@other = addrspace(1) global i32 0\n" +
			"define spir_kernel void @k() {\n  %v = load i32, ptr addrspace(1) @other\n  ret void\n}\n"
		dir := t.TempDir()
		if _, err := runTool(t, dir, src, "-split=auto", "-S", "-o", "s.table"); err != nil {
			t.Fatal(err)
		}
		out := readFile(t, dir+"/s_0.ll")
		if !strings.Contains(out, c.want) {
			t.Errorf("output lacks %q:\n%s", c.want, out)
		}
		if !strings.Contains(out, "@other = addrspace(1) global i32 0\n") {
			t.Errorf("@other changed:\n%s", out)
		}
	}
}

// TestSanitizerKernels: each image gets an empty kernel per sanitizer
// metadata global it holds, named after the global's suffix; an image
// without one gets none.
func TestSanitizerKernels(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

@__MsanKernelMetadata_x1 = appending addrspace(1) global [1 x i64] [i64 1]
@__MsanKernelMetadata = appending addrspace(1) global [1 x i64] [i64 2]

define spir_kernel void @k() #0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
`
	dir := t.TempDir()
	if _, err := runTool(t, dir, src, "-split=kernel", "-symbols", "-S", "-o", "s.table"); err != nil {
		t.Fatal(err)
	}
	ll := readFile(t, dir+"/s_0.ll")
	for _, want := range []string{
		"define weak_odr dso_local spir_kernel void @__sanitizerModule_x1() #1 {\nentry:\n  ret void\n}\n",
		"define weak_odr dso_local spir_kernel void @__sanitizerModule() #1 {\nentry:\n  ret void\n}\n",
		`attributes #1 = { "sycl-entry-point" }`,
	} {
		if !strings.Contains(ll, want) {
			t.Errorf("module lacks %q:\n%s", want, ll)
		}
	}
	if syms := readFile(t, dir+"/s_0.sym"); syms != "k\n" {
		t.Errorf("symbols %q", syms)
	}
	src = "target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k() {\n  ret void\n}\n"
	if _, err := runTool(t, dir, src, "-split=kernel", "-S", "-o", "n.table"); err != nil {
		t.Fatal(err)
	}
	if ll := readFile(t, dir+"/n_0.ll"); strings.Contains(ll, "__sanitizerModule") {
		t.Errorf("a kernel without a sanitizer:\n%s", ll)
	}
}
