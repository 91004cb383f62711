package esimd

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

const inlineSrc = `target triple = "spir64-unknown-unknown"

define spir_kernel void @k(i32 %a) #0 !sycl_explicit_simd !0 {
entry:
  %0 = call spir_func i32 @id(i32 %a)
  %1 = call spir_func i32 @seven()
  %2 = call spir_func i32 @add(i32 %0, i32 %1)
  %3 = call spir_func i32 @kept(i32 %2)
  call spir_func void @nothing()
  ret void
}

define spir_func i32 @id(i32 %x) #0 !sycl_explicit_simd !0 {
entry:
  ret i32 %x
}

define spir_func i32 @seven() #0 !sycl_explicit_simd !0 {
  ret i32 7 ; a comment
}

define spir_func i32 @add(i32 %x, i32 %y) #0 !sycl_explicit_simd !0 {
entry:
  %s = add i32 %x, %y
  ret i32 %s
}

define spir_func i32 @kept(i32 %x) #1 !sycl_explicit_simd !0 {
entry:
  ret i32 %x
}

define spir_func void @nothing() #0 !sycl_explicit_simd !0 {
entry:
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { noinline "sycl-module-id"="a.cpp" }

!0 = !{}
`

// TestLowerInlinesTrivialCallees: a callee that only returns (its argument,
// a constant, nothing) is inlined, the call's value replaced and the
// unnamed values renumbered; a callee with code, or a noinline one in a
// module that keeps noinline, keeps its call.
func TestLowerInlinesTrivialCallees(t *testing.T) {
	m, err := llvmir.Parse("in.ll", []byte(inlineSrc))
	if err != nil {
		t.Fatal(err)
	}
	plan := m.NewPlan()
	changed, err := Lower(&Module{M: m, Plan: plan, Funcs: m.Functions(),
		Defines: func(e *llvmir.Entity) bool { return !e.Func.Declaration },
		IsESIMD: func(*llvmir.Entity) bool { return true }})
	if err != nil || !changed {
		t.Fatalf("Lower: %v, %v", changed, err)
	}
	var b strings.Builder
	if err := plan.Write(&b); err != nil {
		t.Fatal(err)
	}
	const want = "entry:\n  %0 = call spir_func i32 @add(i32 %a, i32 7)\n  %1 = call spir_func i32 @kept(i32 %0)\n  ret void\n}"
	if !strings.Contains(b.String(), want) {
		t.Errorf("kernel body, want\n%s\nin\n%s", want, b.String())
	}
}
