package llvmir

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"@a = global i32 @b\n", "e.ll:1:17: use of undefined value '@b'"},
		{"define void @f() {\n  call void @g()\n  ret void\n}\n", "e.ll:2:13: use of undefined value '@g'"},
		{"@a = global i32 0, !x !4\n", "e.ll:1:23: use of undefined metadata '!4'"},
		{"@a = global i32 0\n@a = global i32 1\n", "e.ll:2:1: redefinition of global '@a'"},
		{"!0 = !{}\n!0 = !{}\n", "e.ll:2:1: redefinition of metadata '!0'"},
		{"%T = type {i32}\n%T = type {i32}\n", "e.ll:2:1: redefinition of type '%T'"},
		{"@s = constant [2 x i8] c\"ab\n", "e.ll:1:24: unterminated string constant"},
		{"@a = global i33x 0\n", "e.ll:1:13: expected a type, found 'i33x'"},
		{"@a = global [2 x i32 zeroinitializer\n", "e.ll:1:22: expected ']', found 'zeroinitializer'"},
		{"define void @f() {\n  ret void\n", "e.ll:1:18: expected '}' at the end of the function body"},
		{"define void @f() {\n  %x = call void @f(\n}\n", "e.ll:3:1: expected a type, found '}'"},
		{"declare void @f(i32 %x\n", "e.ll:2:1: expected ')', found end of input"},
		{"target datalayout = \"e-p:64:63\"\n", "e.ll:1:21: invalid data layout \"e-p:64:63\": p:64:63: alignment must be a power of two times 8 bits"},
		{"@a = weird global i32 0\n", "e.ll:1:6: expected 'global', 'constant', 'alias' or 'ifunc', found 'weird'"},
		{"foo\n", "e.ll:1:1: expected a top-level entity, found 'foo'"},
		{"$c = comdat sometimes\n", "e.ll:1:13: unknown comdat selection kind, found 'sometimes'"},
		{"@a = global i32 0, comdat($nope)\n", "e.ll:1:1: use of undefined comdat '$nope'"},
		{"attributes #0 = { \"a\"= }\n", "e.ll:1:24: expected a string attribute value, found '}'"},
		{"!n = !{!0, \n", "e.ll:2:1: expected a type, found end of input"},
		{"@a = global i32 0 ~\n", "e.ll:1:19: unexpected character"},
		{"%T = type { [2 x %T] }\n", "e.ll:1:1: invalid recursive type '%T'"},
		{"%T = type { i8, %U }\n%U = type <{ %T }>\n", "e.ll:1:1: invalid recursive type '%T'"},
		{"%T = type [2 x %T]\n", "e.ll:1:1: invalid recursive type '%T'"},
		{"%F = type void (%F)\n", "e.ll:1:1: invalid recursive type '%F'"},
		{"target datalayout = \":\"\n", "e.ll:1:21: invalid data layout \":\": :: missing specification letter"},
	} {
		m, err := Parse("e.ll", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if m != nil {
			t.Errorf("%q: module returned with an error", tc.src)
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%q: error %T is not an ErrorList", tc.src, err)
			continue
		}
		if got := list[0].Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestErrorsCollected: independent entities each report their error, in
// source order.
func TestErrorsCollected(t *testing.T) {
	src := "@a = global i32 @x\n@b = global i33x 0\n@c = global i32 0\ndefine void @f() {\n  ret void @y\n}\n"
	_, err := Parse("c.ll", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"c.ll:2:13: expected a type, found 'i33x'",
	}
	// A syntax error stops reference resolution; the undefined @x and @y
	// are not reported until the syntax is fixed.
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s", strings.Join(got, "\n"))
	}
	src = "@a = global i32 @x\n@c = global i32 0\ndefine void @f() {\n  ret ptr @y\n}\n"
	_, err = Parse("c.ll", []byte(src))
	if err == nil || err.Error() != "c.ll:1:17: use of undefined value '@x'\nc.ll:4:11: use of undefined value '@y'" {
		t.Errorf("errors:\n%v", err)
	}
}

// TestImplicitIntrinsic: an intrinsic called without a declaration is
// declared with the call's type, as LLVM's parser does; another undefined
// callee is still an error.
func TestImplicitIntrinsic(t *testing.T) {
	src := "define void @f(ptr %p) {\n  %a = call ptr @llvm.sycl.alloca.p0.f64(ptr %p, double 0.0, i64 8)\n  call void @llvm.x(i32 1, ...)\n  ret void\n}\n"
	m, err := Parse("i.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d := m.Global("llvm.sycl.alloca.p0.f64")
	if d == nil || d.Func == nil || !d.Func.Declaration || string(d.Text) != "declare ptr @llvm.sycl.alloca.p0.f64(ptr, double, i64)\n" {
		t.Fatalf("declaration %v", d)
	}
	if c := m.Global("f").Func.Calls[0]; c.Callee != d {
		t.Error("the call does not resolve to the declaration")
	}
	if _, err := Parse("i.ll", []byte("define void @f() {\n  call void @g()\n  ret void\n}\n")); err == nil {
		t.Error("an undefined non-intrinsic callee was accepted")
	}
}
