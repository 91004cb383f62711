package toolchain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

func TestScanText(t *testing.T) {
	tests := []struct {
		name, src             string
		llvm                  int
		why                   string
		kernels, externalDefs bool
		triple                string
	}{
		{"typed pointers", "target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k(i32 addrspace(1)* %p) {\n  ret void\n}\n",
			15, "typed pointers at line 2", true, false, "spir64-unknown-unknown"},
		{"opaque, no new syntax", "define weak_odr dso_local spir_kernel void @k(ptr addrspace(1) %p) {\n  ret void\n}\n",
			0, "", true, false, ""},
		{"LLVM 19 attributes", "define spir_func range(i32 0, 5) i32 @f() #0 {\n  ret i32 1\n}\nattributes #0 = { memory(none) }\n",
			19, `"range(i32 " at line 1`, false, true, ""},
		{"target extension type (LLVM 16 and later)", "target triple = \"spir64-unknown-unknown\"\ndeclare target(\"spirv.JointMatrixINTEL\", float, 8, 16, 3, 3, 2) @m()\n",
			19, `"target(" at line 2`, false, false, "spir64-unknown-unknown"},
		{"star in comments and strings", "; i8* in a comment\n@s = constant [3 x i8] c\"a*b\"\n!0 = !{!\"x*\"}\n",
			0, "", false, false, ""},
		{"SYCL_EXTERNAL helper only", "define dso_local spir_func void @helper() {\n  ret void\n}\ndefine linkonce_odr spir_func void @inl() {\n  ret void\n}\n",
			0, "", false, true, ""},
		{"nothing external", "define internal void @a() {\n  ret void\n}\ndefine linkonce_odr void @b() {\n  ret void\n}\ndeclare void @c()\n",
			0, "", false, false, ""},
		{"nvvm annotations", "define void @k(ptr %p) {\n  ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"kernel\", i32 1}\n",
			0, "", true, true, ""},
		{"quoted name", "define spir_kernel void @\"k (x)\"() {\n  ret void\n}\n", 0, "", true, false, ""},
		{"typed-pointer nvvm annotation", "define void @k(i32* %p) {\n  ret void\n}\n!nvvm.annotations = !{!0}\n!0 = !{void (i32*)* @k, !\"kernel\", i32 1, !\"maxntidx\", i32 64}\n",
			15, "typed pointers at line 1", true, true, ""},
		{"other nvvm annotations", "define internal void @k(ptr %p) {\n  ret void\n}\n!nvvm.annotations = !{!0, !1}\n!0 = !{ptr @k, !\"kernel\", i32 0}\n!1 = !{ptr @k, !\"maxntidx\", i32 1} ; !\"kernel\"\n",
			0, "", false, false, ""},
		{"amdgpu kernel with attributes", "define protected amdgpu_kernel void @k(ptr addrspace(1) noundef align 4 %p) local_unnamed_addr #0 {\n  ret void\n}\n",
			0, "", true, false, ""},
	}
	for _, tt := range tests {
		info := &IRInfo{}
		if err := scanText("t.ll", []byte(tt.src), info); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if info.LLVM != tt.llvm || info.Why != tt.why || info.Kernels != tt.kernels || info.ExternalDefs != tt.externalDefs || info.Triple != tt.triple {
			t.Errorf("%s: got LLVM %d (%s) kernels %v externals %v triple %q", tt.name, info.LLVM, info.Why, info.Kernels, info.ExternalDefs, info.Triple)
		}
	}
}

// TestScanNotIR: what is not textual IR is an error at its position, not
// an input without device code.
func TestScanNotIR(t *testing.T) {
	tests := []struct{ src, want string }{
		{"\x00\x01binary", "t.ll:1:1: not LLVM IR: unexpected byte 0x00"},
		{"; fine\ndefine void @f() {\n  ret void\n}\n\x7fELF\x02", "t.ll:5:1: not LLVM IR: unexpected byte 0x7f"},
		{"define void @f() {\n  %x = add i32 1, \xc3\xa9\n}\n", "t.ll:2:19: not LLVM IR: unexpected byte 0xc3"},
		{"hello world\n", `t.ll:1:1: not LLVM IR: expected a top-level entity (define, declare, @global, !metadata, …), found "hello world"`},
		{"@s = constant [2 x i8] c\"ab\n", "t.ll:1:25: not LLVM IR: unterminated string"},
	}
	for _, tt := range tests {
		err := scanText("t.ll", []byte(tt.src), &IRInfo{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("scanText(%q) = %v, want %s…", tt.src, err, tt.want)
		}
	}
	// Strings, comments and wrapped entities may hold anything.
	ok := "; \x01 é\n@s = constant [2 x i8] c\"\xff*\"\n@a = global [2 x i32] [\n  i32 1,\n  i32 2\n]\n!0 = !{!\"é\"}\n"
	if err := scanText("t.ll", []byte(ok), &IRInfo{}); err != nil {
		t.Errorf("valid IR: %v", err)
	}
}

// BenchmarkScanLongLine: a 100 MB one-line constant (the pre-scan must run
// at the speed of a memory scan).
func BenchmarkScanLongLine(b *testing.B) {
	var src bytes.Buffer
	src.WriteString("@c = constant [10000000 x i32] [")
	for i := 0; i < 10_000_000; i++ {
		if i > 0 {
			src.WriteString(", ")
		}
		src.WriteString("i32 7")
	}
	src.WriteString("]\n@s = constant [3 x i8] c\"a*b\"\n")
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		if err := scanText("t.ll", src.Bytes(), &IRInfo{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestScanBitcode(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "k.ll")
	os.WriteFile(src, []byte("target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k() {\n  ret void\n}\n"), 0o644)
	for _, v := range []int{15, 19} {
		as := testenv.Tool(t, "llvm-as-"+itoa(v))
		bc := filepath.Join(dir, "k"+itoa(v)+".bc")
		if out, err := exec.Command(as, src, "-o", bc).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", as, err, out)
		}
		info, err := ScanIR(bc)
		if err != nil {
			t.Fatal(err)
		}
		if !info.Bitcode || info.LLVM != v || info.Triple != "spir64-unknown-unknown" || !info.HasDeviceCode() {
			t.Errorf("llvm-as-%d bitcode: %+v", v, info)
		}
	}
}

func TestBitcodeMalformed(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("BC"), []byte("BC\xc0\xde\x35\x14\x00\x00"), []byte("BC\xc0\xde\xff\xff\xff\xff\xff\xff"), []byte("not bitcode")} {
		if _, _, err := bitcodeInfo(data); err == nil && len(data) < 6 {
			t.Errorf("bitcodeInfo(%q) succeeded", data)
		}
	}
}

func FuzzBitcodeInfo(f *testing.F) {
	f.Add([]byte("BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00\x62\x0c\x30\x24"))
	f.Add([]byte{0xde, 0xc0, 0x17, 0x0b, 0, 0, 0, 0, 20, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 1, 'B', 'C', 0xc0, 0xde})
	f.Fuzz(func(t *testing.T, data []byte) {
		bitcodeInfo(data) // must not panic or hang
	})
}

func FuzzScanText(f *testing.F) {
	f.Add([]byte("target triple = \"spir64\"\ndefine spir_kernel void @k(i8* %p) {\n  ret void\n}\n"))
	f.Add([]byte("@a = global [2 x i32] [\n  i32 1,\n  i32 2\n]\n!0 = !{!\"x;y\"} ; c\n"))
	f.Add([]byte("\x7fELF\x02\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info := &IRInfo{}
		err := scanText("f.ll", data, info)
		if err == nil {
			return
		}
		se, ok := err.(*ScanError)
		if !ok || se.Line < 1 || se.Col < 1 {
			t.Fatalf("error without a position: %v", err)
		}
	})
}

// ScanIR finds kernels where the splitter does: for every textual module
// of the project's tests and examples, its Kernels agrees with whether the
// parsed module defines a function llvmir takes for a kernel.
func TestScanKernelsAsParsed(t *testing.T) {
	var files []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".ll") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := llvmir.Parse(path, src)
		if err != nil {
			continue // not a module (a test's broken input)
		}
		info, err := ScanIR(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		nvvm := m.NVVMKernels()
		kernels := false
		for _, e := range m.Entities {
			if e.Func != nil && !e.Func.Declaration && (llvmir.IsKernelCallingConv(e.Func.CallingConv) || nvvm[e]) {
				kernels = true
			}
		}
		if info.Kernels != kernels {
			t.Errorf("%s: ScanIR finds kernels %v, the parsed module %v", path, info.Kernels, kernels)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d modules checked", checked)
	}
	t.Logf("%d modules", checked)
}

// BenchmarkScanManyFunctions: 100,000 small kernels and helpers, each
// define line read by llvmir.ScanDefineHead.
func BenchmarkScanManyFunctions(b *testing.B) {
	var src bytes.Buffer
	src.WriteString("target triple = \"spir64-unknown-unknown\"\n")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&src, "define weak_odr dso_local spir_kernel void @_ZTS6Kernel%d(ptr addrspace(1) noundef align 4 %%out, i32 noundef %%n) local_unnamed_addr #0 !kernel_arg_addr_space !1 {\nentry:\n  %%0 = load i32, ptr addrspace(1) %%out, align 4\n  %%1 = add nsw i32 %%0, %%n\n  store i32 %%1, ptr addrspace(1) %%out, align 4\n  ret void\n}\n", i)
		fmt.Fprintf(&src, "define linkonce_odr dso_local spir_func i32 @_Z6helperi%d(i32 noundef %%x) #1 {\nentry:\n  ret i32 %%x\n}\n", i)
	}
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		if err := scanText("t.ll", src.Bytes(), &IRInfo{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestScanCutShort: a module cut short before its first define (a
// translation unit whose write was interrupted) is not an input without
// device code to skip but an error at its position: for every cut inside
// a line, ScanIR fails; a cut at a line's end leaves a whole module,
// which may be skipped.
func TestScanCutShort(t *testing.T) {
	src := []byte(`; ModuleID = 'a.cpp'
source_filename = "a.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%struct.S = type { i32, i64 }

@g = internal addrspace(1) global i32 0, align 4
@.str = private unnamed_addr addrspace(1) constant [3 x i8] c"hi\00", align 1

declare spir_func void @ext(ptr addrspace(4))

define spir_kernel void @k() #0 {
entry:
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
`)
	end := bytes.Index(src, []byte("define"))
	dir := t.TempDir()
	skipped := 0
	for n := 1; n < end; n++ {
		p := filepath.Join(dir, fmt.Sprintf("cut%d.ll", n))
		os.WriteFile(p, src[:n], 0o644)
		info, err := ScanIR(p)
		if src[n-1] == '\n' {
			if err != nil {
				t.Errorf("cut after line end at byte %d: %v", n, err)
			}
			skipped++
			continue
		}
		var se *ScanError
		if !errors.As(err, &se) || se.File != p || se.Line < 1 || se.Col < 1 {
			t.Errorf("cut at byte %d (%q): %v, %+v; want an error at a position", n, src[max(0, n-20):n], err, info)
		}
	}
	if skipped == 0 {
		t.Error("no cut at a line's end was tried")
	}
}
