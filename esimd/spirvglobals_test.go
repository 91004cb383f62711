package esimd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

const spirvSrc = `target triple = "spir64-unknown-unknown"

@__spirv_BuiltInSubgroupLocalInvocationId = external addrspace(1) constant i32, align 4
@__spirv_BuiltInSubgroupSize = external addrspace(1) constant i32, align 4
@__spirv_BuiltInSubgroupMaxSize = external addrspace(1) constant i32, align 4
@__spirv_BuiltInGlobalInvocationId = external addrspace(1) constant <3 x i64>, align 32

define spir_kernel void @esimd(ptr addrspace(1) %out) #0 !sycl_explicit_simd !0 {
entry:
  %0 = load i32, ptr addrspace(1) @__spirv_BuiltInSubgroupLocalInvocationId, align 4
  %1 = load volatile i32, ptr addrspace(4) addrspacecast (ptr addrspace(1) @__spirv_BuiltInSubgroupSize to ptr addrspace(4)), align 4 ; size
  %max = load i32, ptr addrspace(1) @__spirv_BuiltInSubgroupMaxSize, align 4, !noalias !0
  %gid = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %2 = add i32 %0, %1
  %3 = mul i32 %2, %max
  store i32 %3, ptr addrspace(1) %out, align 4
  ret void
}

define spir_kernel void @sycl(ptr addrspace(1) %out) #0 {
entry:
  %0 = load i32, ptr addrspace(1) @__spirv_BuiltInSubgroupSize, align 4
  store i32 %0, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

!0 = !{}
`

// TestLowerSpirvSubgroupGlobals: in ESIMD code the loads of the sub-group
// builtin variables become constants (local ID 0, size and maximum size
// 1), whatever the load's form (numbered or named, volatile, through a
// cast); a load of another builtin variable, and any load in SYCL code,
// stay. The result is valid IR (llvm-as).
func TestLowerSpirvSubgroupGlobals(t *testing.T) {
	m, err := llvmir.Parse("in.ll", []byte(spirvSrc))
	if err != nil {
		t.Fatal(err)
	}
	plan := m.NewPlan()
	changed, err := Lower(&Module{M: m, Plan: plan, Funcs: m.Functions(),
		Defines: func(e *llvmir.Entity) bool { return !e.Func.Declaration },
		IsESIMD: func(e *llvmir.Entity) bool { return e.Name == "esimd" }})
	if err != nil || !changed {
		t.Fatalf("Lower: %v, %v", changed, err)
	}
	var b strings.Builder
	if err := plan.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"entry:\n  %gid = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32\n  %0 = add i32 0, 1\n  %1 = mul i32 %0, 1\n  store i32 %1, ptr addrspace(1) %out, align 4\n",
		"entry:\n  %0 = load i32, ptr addrspace(1) @__spirv_BuiltInSubgroupSize, align 4\n  store i32 %0, ptr addrspace(1) %out, align 4\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want\n%s\nin\n%s", want, out)
		}
	}
	as := testenv.Tool(t, "llvm-as-19")
	p := filepath.Join(t.TempDir(), "out.ll")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(as, p, "-o", os.DevNull).CombinedOutput(); err != nil {
		t.Errorf("llvm-as: %v\n%s\n%s", err, msg, out)
	}
}
