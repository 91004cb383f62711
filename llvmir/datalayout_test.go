package llvmir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

const spir64DL = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"

func TestDataLayoutSizes(t *testing.T) {
	m := newModule("t", nil)
	for _, tc := range []struct {
		dl, typ                string
		bits, store, alloc, al uint64
	}{
		{"", "i1", 1, 1, 1, 1},
		{"", "i64", 64, 8, 8, 4}, // LLVM's default i64:32:64
		{"", "i128", 128, 16, 16, 4},
		{"", "i24", 24, 3, 4, 4},
		{"", "ptr", 64, 8, 8, 8},
		{"", "ptr addrspace(3)", 64, 8, 8, 8},
		{"", "double", 64, 8, 8, 8},
		{"", "half", 16, 2, 2, 2},
		{"", "bfloat", 16, 2, 2, 2},
		{"", "x86_fp80", 80, 10, 16, 16},
		{"", "fp128", 128, 16, 16, 16},
		{"", "<3 x i32>", 96, 12, 16, 16},
		{"", "<4 x i1>", 4, 1, 1, 1},
		{"", "[3 x i16]", 48, 6, 6, 2},
		{"", "{ i8, i32 }", 64, 8, 8, 4},
		{"", "<{ i8, i32 }>", 40, 5, 5, 1},
		{"", "{}", 0, 0, 0, 1},
		{spir64DL, "i64", 64, 8, 8, 8},
		{spir64DL, "<3 x i32>", 96, 12, 16, 16},
		{spir64DL, "<3 x i8>", 24, 3, 4, 4},
		{spir64DL, "{ i8, <3 x i32> }", 256, 32, 32, 16},
		{"e-p:32:32-p3:16:16-i64:64-a:32", "ptr", 32, 4, 4, 4},
		{"e-p:32:32-p3:16:16-i64:64-a:32", "ptr addrspace(3)", 16, 2, 2, 2},
		{"e-p:32:32-p3:16:16-i64:64-a:32", "ptr addrspace(5)", 32, 4, 4, 4},
		{"e-p:32:32-p3:16:16-i64:64-a:32", "{ i8 }", 8, 1, 4, 4}, // a: raises the alignment, not the layout size
		{"e-p:32:32-p3:16:16-i64:64-a:32", "i8 addrspace(3)*", 16, 2, 2, 2},
		{"e-m:e-i64:64-f80:128-n8:16:32:64-S128", "x86_fp80", 80, 10, 16, 16},
		{"e-f80:32", "{ i8, x86_fp80 }", 128, 16, 16, 4},
	} {
		dl, err := ParseDataLayout(tc.dl)
		if err != nil {
			t.Fatal(err)
		}
		ty, err := m.ParseType(tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		bits, _ := dl.SizeInBits(ty)
		store, _ := dl.StoreSize(ty)
		alloc, _ := dl.AllocSize(ty)
		al, err := dl.ABIAlign(ty)
		if err != nil {
			t.Fatalf("%q %s: %v", tc.dl, tc.typ, err)
		}
		if bits != tc.bits || store != tc.store || alloc != tc.alloc || al != tc.al {
			t.Errorf("%q %s: bits %d store %d alloc %d align %d, want %d %d %d %d",
				tc.dl, tc.typ, bits, store, alloc, al, tc.bits, tc.store, tc.alloc, tc.al)
		}
	}
}

func TestDataLayoutErrors(t *testing.T) {
	for _, s := range []string{"x", "e-p:64", "e-i:8", "i32:12", "p:0:8", "e-p:64:64:64:64:64:64", "n8:x", "Ex"} {
		if _, err := ParseDataLayout(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
	m := newModule("t", nil)
	dl := defaultDataLayout()
	for _, s := range []string{"void", "label", "i32 (i32)", "%opq", `target("spirv.Image")`} {
		ty, err := m.ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dl.AllocSize(ty); err == nil {
			t.Errorf("%s: sized", s)
		}
	}
}

// cStructs is a table of C structs; the fields must map one to one onto
// the elements of the LLVM struct clang emits (clang may add tail padding).
var cStructs = []struct {
	name, body string
	fields     []string
}{
	{"A", "char a; int b; double c;", []string{"a", "b", "c"}},
	{"Bo", "_Bool a; _Bool b; short c; _Bool d;", []string{"a", "b", "c", "d"}},
	{"H", "char a; __fp16 h; float f; __fp16 g;", []string{"a", "h", "f", "g"}},
	{"L", "char a; long long l; char b; long double d; short s;", []string{"a", "l", "b", "d", "s"}},
	{"N", "char a; struct A x; char b; struct Bo y[3]; int c;", []string{"a", "x", "b", "y", "c"}},
	{"V3", "char a; int3 v; char b; char3 c; short3 s; double3 d;", []string{"a", "v", "b", "c", "s", "d"}},
	{"V4", "float4 f; char a; long2 l; int i;", []string{"f", "a", "l", "i"}},
	{"Ar", "char a[3]; int b[2][3]; double c; struct V3 d[2];", []string{"a", "b", "c", "d"}},
	{"__attribute__((packed)) Pk", "char a; int b; double3 c; short d;", []string{"a", "b", "c", "d"}},
	{"Np", "char a; struct Pk p; int3 b;", []string{"a", "p", "b"}},
	{"Ptr", "char a; void *p; char b; int *q[2];", []string{"a", "p", "b", "q"}},
}

// TestDataLayoutClang compiles the struct table with clang-19 for spir64,
// nvptx64 and x86_64, reads offsetof/sizeof/_Alignof back from the IR, and
// compares them with the layout computed on the struct types clang emits.
func TestDataLayoutClang(t *testing.T) {
	clang := testenv.Tool(t, "clang-19")
	var c strings.Builder
	c.WriteString(`typedef int int3 __attribute__((ext_vector_type(3)));
typedef char char3 __attribute__((ext_vector_type(3)));
typedef short short3 __attribute__((ext_vector_type(3)));
typedef double double3 __attribute__((ext_vector_type(3)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef long long long2 __attribute__((ext_vector_type(2)));
`)
	for _, s := range cStructs {
		name := s.name[strings.LastIndexByte(s.name, ' ')+1:]
		fmt.Fprintf(&c, "struct %s { %s };\nstruct %s v_%s;\n", s.name, s.body, name, name)
		fmt.Fprintf(&c, "unsigned long long size_%s = sizeof(struct %s);\n", name, name)
		fmt.Fprintf(&c, "unsigned long long align_%s = _Alignof(struct %s);\n", name, name)
		for _, f := range s.fields {
			fmt.Fprintf(&c, "unsigned long long off_%s_%s = __builtin_offsetof(struct %s, %s);\n", name, f, name, f)
		}
	}
	dir := t.TempDir()
	cfile := filepath.Join(dir, "layout.c")
	if err := os.WriteFile(cfile, []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, triple := range []string{"spir64-unknown-unknown", "nvptx64-nvidia-cuda", "x86_64-unknown-linux-gnu"} {
		t.Run(triple, func(t *testing.T) {
			llfile := filepath.Join(dir, triple+".ll")
			out, err := exec.Command(clang, "-target", triple, "-S", "-emit-llvm", "-O0", "-o", llfile, cfile).CombinedOutput()
			if err != nil {
				t.Fatalf("clang: %v\n%s", err, out)
			}
			m, err := ParseFile(llfile)
			if err != nil {
				t.Fatal(err)
			}
			if m.DataLayout.Text == "" {
				t.Fatal("clang emitted no data layout")
			}
			value := func(name string) uint64 {
				g := m.Global(name)
				if g == nil || g.Var == nil {
					t.Fatalf("@%s missing", name)
				}
				if g.Var.Init == "zeroinitializer" {
					return 0
				}
				v, err := strconv.ParseUint(g.Var.Init, 10, 64)
				if err != nil {
					t.Fatalf("@%s = %s", name, g.Var.Init)
				}
				return v
			}
			dl := m.DataLayout
			for _, s := range cStructs {
				name := s.name[strings.LastIndexByte(s.name, ' ')+1:]
				ty := m.Global("v_" + name).Var.Type
				if ty.Name != "struct."+name {
					t.Fatalf("v_%s has type %s", name, ty)
				}
				l, err := dl.Layout(ty)
				if err != nil {
					t.Fatal(err)
				}
				size, _ := dl.AllocSize(ty)
				align, _ := dl.ABIAlign(ty)
				if size != value("size_"+name) || align != value("align_"+name) {
					t.Errorf("struct %s %s: size %d align %d, clang %d %d",
						name, ty.Body(), size, align, value("size_"+name), value("align_"+name))
				}
				if len(ty.Fields) < len(s.fields) {
					t.Fatalf("struct %s: %d elements for %d fields", name, len(ty.Fields), len(s.fields))
				}
				for i, f := range s.fields {
					if want := value("off_" + name + "_" + f); l.Offsets[i] != want {
						t.Errorf("struct %s %s: offset of %s = %d, clang %d", name, ty.Body(), f, l.Offsets[i], want)
					}
				}
			}
		})
	}
}
