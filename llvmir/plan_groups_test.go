package llvmir

import (
	"strings"
	"testing"
)

// TestAddFnAttrGrouped: attributes added to functions' headers are written
// as LLVM prints a function's attributes, in an attribute group: the
// function's own group rewritten when only functions given the same ones
// name it, otherwise a copy they share, the old group kept while a call
// site or another function names it.
func TestAddFnAttrGrouped(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

define spir_kernel void @a() #0 {
  ret void
}

define spir_kernel void @b() #0 {
  ret void
}

define spir_func void @c() #1 {
  call spir_func void @d() #1
  ret void
}

define spir_func void @d() {
  ret void
}

define spir_func void @e() nounwind #2 {
  ret void
}

define spir_func void @f() #2 {
  ret void
}

attributes #0 = { convergent "sycl-module-id"="a.cpp" "uniform-work-group-size"="true" }
attributes #1 = { nounwind }
attributes #2 = { "x"="1" }
`
	m, err := Parse("g.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := m.NewPlan()
	ep := Attr{Key: "sycl-entry-point", String: true}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		p.AddFnAttr(m.Global(n), ep)
	}
	p.SetGroupAttrs(m.AttrGroup(2), Attrs{{Key: "y", String: true}, {Key: "x", Value: "1", HasValue: true, String: true}, {Key: "nounwind"}})
	p.AddFnAttr(m.Global("f"), Attr{Key: "w", String: true})
	out := string(writePlan(t, p))
	for _, want := range []string{
		// Only @a and @b name #0, and both get the same: #0 is rewritten.
		"define spir_kernel void @a() #0 {",
		"define spir_kernel void @b() #0 {",
		`attributes #0 = { convergent "sycl-entry-point" "sycl-module-id"="a.cpp" "uniform-work-group-size"="true" }`,
		// A call site still names #1: a copy.
		"define spir_func void @c() #3 {",
		"call spir_func void @d() #1\n",
		"attributes #1 = { nounwind }",
		`attributes #3 = { nounwind "sycl-entry-point" }`,
		// No group: one of its own.
		"define spir_func void @d() #4 {",
		`attributes #4 = { "sycl-entry-point" }`,
		// Inline attributes: the added one stays inline.
		`define spir_func void @e() nounwind #2 "sycl-entry-point" {`,
		// A group set by SetGroupAttrs is what the copy starts from (@e
		// names #2 too).
		`attributes #2 = { nounwind "x"="1" "y" }`,
		"define spir_func void @f() #5 {",
		`attributes #5 = { nounwind "w" "x"="1" "y" }`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "attributes #0") != 1 {
		t.Errorf("group #0 is written twice:\n%s", out)
	}
	// A sparse plan writing @a alone rewrites #0 as well.
	sp := m.NewSparsePlan([]*Entity{m.Global("a")})
	sp.AddFnAttr(m.Global("a"), ep)
	if got := string(writePlan(t, sp)); !strings.Contains(got, "define spir_kernel void @a() #0 {") ||
		!strings.Contains(got, `attributes #0 = { convergent "sycl-entry-point" "sycl-module-id"="a.cpp" "uniform-work-group-size"="true" }`) {
		t.Errorf("sparse plan of @a:\n%s", got)
	}
	again := string(writePlan(t, p))
	if again != out {
		t.Errorf("a second write differs:\n%s", again)
	}
	assemble(t, "llvm-as-19", "g.ll", []byte(out))
}
