package specconst

import (
	"strings"
	"testing"
)

// TestSpilledGlobal: the -O0 form of a symbolic ID argument, a reload of
// the stack slot its address was stored to, leads to the global; any
// other form, or a slot stored twice, to none.
func TestSpilledGlobal(t *testing.T) {
	const fn = `define void @f() {
  %4 = alloca i8 addrspace(4)*, align 8
  %6 = addrspacecast i8 addrspace(4)** %4 to i8 addrspace(4)* addrspace(4)*
  store i8 addrspace(4)* addrspacecast (i8* getelementptr inbounds ([32 x i8], [32 x i8]* @__usid_str.1, i32 0, i32 0) to i8 addrspace(4)*), i8 addrspace(4)* addrspace(4)* %6, align 8, !tbaa !4
  %8 = load i8 addrspace(4)*, i8 addrspace(4)* addrspace(4)* %6, align 8, !tbaa !4
  %n.addr = alloca ptr, align 8
  store ptr @"quoted name", ptr %n.addr, align 8
  %n = load ptr, ptr %n.addr, align 8
  %m = load ptr, ptr %n.addr, align 8
  store ptr null, ptr %n.addr
  ret void
}
`
	for v, want := range map[string]string{"%8": "__usid_str.1", "%4": "", "@x": "", "%m": ""} {
		if got := spilledGlobal([]byte(fn), v); got != want {
			t.Errorf("%s: got %q, want %q", v, got, want)
		}
	}
	one := []byte(`  %n.addr = alloca ptr, align 8
  store ptr @"quoted name", ptr %n.addr, align 8
  %n = load ptr, ptr %n.addr, align 8
`)
	if got := spilledGlobal(one, "%n"); got != "quoted name" {
		t.Errorf("%%n: got %q", got)
	}
}

// TestLowerSpilledSymbolicID: unoptimised code passes the symbolic ID
// through a stack slot; the call is lowered as if it were passed directly.
func TestLowerSpilledSymbolicID(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

@id = private unnamed_addr constant [3 x i8] c"id\00", align 1
@sc = internal addrspace(1) constant { i32 } { i32 7 }, align 4

define spir_kernel void @k() #0 {
  %n.addr = alloca ptr addrspace(4), align 8
  %n.cast = addrspacecast ptr %n.addr to ptr addrspace(4)
  store ptr addrspace(4) addrspacecast (ptr @id to ptr addrspace(4)), ptr addrspace(4) %n.cast, align 8
  %n = load ptr addrspace(4), ptr addrspace(4) %n.cast, align 8
  %v = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) %n, ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc to ptr addrspace(4)), ptr addrspace(4) null)
  ret void
}

declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))

attributes #0 = { "sycl-module-id"="a.cpp" }
`
	out, res := lower(t, src, Options{Mode: Native})
	if !strings.Contains(out, "call i32 @_Z20__spirv_SpecConstantii(i32 0, i32 7)") || len(res.SpecConsts) != 1 || res.SpecConsts[0].SymID != "id" {
		t.Errorf("not lowered (%+v):\n%s", res.SpecConsts, out)
	}
}
