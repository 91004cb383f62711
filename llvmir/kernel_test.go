package llvmir

import "testing"

// ScanDefineHead reads a define line as the module parser reads the
// function: the same linkage and calling convention.
func TestScanDefineHead(t *testing.T) {
	for _, line := range []string{
		"define spir_kernel void @k() {",
		"define weak_odr dso_local spir_kernel void @k(ptr addrspace(1) noundef align 4 %p) !kernel_arg_addr_space !{i32 1} {",
		"define internal spir_func i32 @f(i32 %x) {",
		"define linkonce_odr hidden void @\"k (x)\"() section \"s\" {",
		"define available_externally cc 71 void @k() {",
		"define dso_local ptx_kernel void @k(ptr %p) {",
		"define protected amdgpu_kernel void @k() {",
		"define private noundef i32 @f() {",
		"define %struct.S @f(%struct.S* %p) {",
	} {
		m, err := Parse("in.ll", []byte(line+"\n  unreachable\n}\n"))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		f := m.Entities[len(m.Entities)-1].Func
		h, ok := ScanDefineHead([]byte(line))
		if !ok || h.Linkage != f.Linkage || h.CallingConv != f.CallingConv {
			t.Errorf("ScanDefineHead(%s) = %+v, %v; the parser reads linkage %v, calling convention %q", line, h, ok, f.Linkage, f.CallingConv)
		}
	}
	for _, line := range []string{"declare void @f()", "define cc x void @f()", "defined"} {
		if h, ok := ScanDefineHead([]byte(line)); ok {
			t.Errorf("ScanDefineHead(%s) = %+v, want not ok", line, h)
		}
	}
}

// IsKernelAnnotationLine accepts the lines whose node NVVMKernel takes for
// a kernel annotation of a parsed module.
func TestKernelAnnotations(t *testing.T) {
	for _, tc := range []struct {
		node string
		want bool
	}{
		{`!{ptr @k, !"kernel", i32 1}`, true},
		{`distinct !{ptr @k, !"kernel", i32 1}`, true},
		{`!{ ptr @k , !"kernel" , i32 1 , !"maxntidx", i32 256 }`, true},
		{`!{ptr @k, !"kernel", i32 0}`, false},
		{`!{ptr @k, !"maxntidx", i32 1}`, false},
		{`!{ptr @k, !"kernel"}`, false},
		{`!{i32 1, !"kernel", i32 1}`, false},
		{`!{!"kernel", ptr @k, i32 1}`, false},
	} {
		src := "define void @k() {\n  ret void\n}\n!nvvm.annotations = !{!0}\n!0 = " + tc.node + "\n"
		m, err := Parse("in.ll", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.node, err)
		}
		parsed := len(m.NVVMKernels()) == 1
		scanned := IsKernelAnnotationLine([]byte("!0 = " + tc.node))
		if parsed != tc.want || scanned != tc.want {
			t.Errorf("%s: NVVMKernels finds a kernel: %v, IsKernelAnnotationLine %v; want %v", tc.node, parsed, scanned, tc.want)
		}
	}
	if IsKernelAnnotationLine([]byte(`!nvvm.annotations = !{!0}`)) || IsKernelAnnotationLine([]byte(`!0 = !{ptr @k, !"kernel", i32 1`)) {
		t.Error("IsKernelAnnotationLine accepts a named node or an unterminated one")
	}
}
