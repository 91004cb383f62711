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
