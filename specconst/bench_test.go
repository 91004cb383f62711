package specconst

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// benchModule is a module of n kernels, each reading a scalar and a
// composite spec constant and doing some unrelated numbered arithmetic.
func benchModule(n int) []byte {
	var b strings.Builder
	b.WriteString(header)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `
define spir_kernel void @k%d(ptr addrspace(1) %%out, ptr addrspace(4) %%buf) {
entry:
  %%s = alloca %%struct.S, align 4
  %%0 = load i32, ptr addrspace(1) %%out, align 4
  %%1 = call spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_a to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_a to ptr addrspace(4)), ptr addrspace(4) %%buf)
  %%2 = add i32 %%0, %%1
  call spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(ptr sret(%%struct.S) align 4 %%s, ptr addrspace(4) addrspacecast (ptr addrspace(1) @name_c to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc_c to ptr addrspace(4)), ptr addrspace(4) %%buf)
  %%3 = mul i32 %%2, 3
  %%4 = add i32 %%3, 7
  %%5 = mul i32 %%4, %%2
  store i32 %%5, ptr addrspace(1) %%out, align 4
  ret void
}
`, i)
	}
	b.WriteString(`
declare spir_func i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
declare spir_func void @_Z40__sycl_getComposite2020SpecConstantValueI1SET_PKcPKvS5_(ptr sret(%struct.S) align 4, ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
`)
	return []byte(b.String())
}

// BenchmarkLower measures lowering and writing a module of 2000 kernels
// (each with two spec-constant reads) in each mode.
func BenchmarkLower(b *testing.B) {
	src := benchModule(2000)
	m, err := llvmir.Parse("bench.ll", src)
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []Mode{Native, Emulation, DefaultValues} {
		b.Run(mode.String(), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p := m.NewPlan()
				if _, err := Lower(m, p, Options{Mode: mode}); err != nil {
					b.Fatal(err)
				}
				if err := p.Write(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
