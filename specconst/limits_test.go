package specconst

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// nestedModule returns a module with one composite spec constant of type
// %t<depth>, where %t0 is i32 and every %t<i> holds width copies of
// %t<i-1>: width^depth leaves.
func nestedModule(depth, width int) string {
	var b strings.Builder
	b.WriteString(`target datalayout = "e-i64:64-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%t0 = type { i32 }
`)
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "%%t%d = type { %%t%d%s }\n", i, i-1, strings.Repeat(fmt.Sprintf(", %%t%d", i-1), width-1))
	}
	fmt.Fprintf(&b, `%%spec_id = type { %%t%[1]d }

@name = private unnamed_addr addrspace(1) constant [2 x i8] c"n\00", align 1
@sc = internal addrspace(1) constant %%spec_id zeroinitializer, align 4

define spir_kernel void @k(ptr addrspace(4) %%buf, ptr addrspace(1) %%out) {
entry:
  %%v = call spir_func %%t%[1]d @_Z40__sycl_getComposite2020SpecConstantValueI1TET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc to ptr addrspace(4)), ptr addrspace(4) %%buf)
  store %%t%[1]d %%v, ptr addrspace(1) %%out, align 4
  ret void
}

declare spir_func %%t%[1]d @_Z40__sycl_getComposite2020SpecConstantValueI1TET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
`, depth)
	return b.String()
}

// A spec constant whose type has exponentially many leaves is refused at
// the call, in every mode, before anything is emitted for it.
func TestLowerTooManyElements(t *testing.T) {
	const depth = 40
	m, err := llvmir.Parse("in.ll", []byte(nestedModule(depth, 2)))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`in.ll:%d:3: spec constant "n" of type %%t%d has more than %d scalar elements`, depth+12, depth, MaxElements)
	for _, mode := range []Mode{Native, Emulation, DefaultValues} {
		for _, p := range []*llvmir.Plan{m.NewPlan(), nil} {
			if _, err := Lower(m, p, Options{Mode: mode}); err == nil || err.Error() != want {
				t.Errorf("%v: Lower = %v, want %s", mode, err, want)
			}
		}
	}
}

// Types nested beyond llvmir.MaxNesting do not reach the lowering: the
// parser refuses them; the deepest it accepts is lowered in every mode,
// and a deeper type built otherwise is refused by the count.
func TestLowerDeepTypes(t *testing.T) {
	_, err := llvmir.Parse("in.ll", []byte(nestedModule(5*llvmir.MaxNesting, 1)))
	if want := fmt.Sprintf("in.ll:%d:1: type '%%t%d' nested deeper than %d levels", llvmir.MaxNesting+3, llvmir.MaxNesting-1, llvmir.MaxNesting); err == nil || err.Error() != want {
		t.Errorf("Parse = %v, want %s", err, want)
	}

	depth := llvmir.MaxNesting - 3
	src := nestedModule(depth, 1)
	for _, mode := range []Mode{Native, Emulation, DefaultValues} {
		out, res := lower(t, src, Options{Mode: mode})
		if strings.Contains(out, "__sycl_get") || !res.Modified {
			t.Errorf("%v: not lowered: %+v", mode, res)
		}
	}

	deep := typeI32
	for range 10 * llvmir.MaxNesting {
		deep = &llvmir.Type{Kind: llvmir.StructType, Fields: []*llvmir.Type{deep}}
	}
	if _, err := (elementCounter{}).count(deep, 0); err != errNesting {
		t.Errorf("count of a type nested %d levels: %v, want %v", 10*llvmir.MaxNesting, err, errNesting)
	}
}

// A type reached through many paths is lowered at the cost of its
// elements: one SPIR-V call and descriptor per leaf.
func TestLowerSharedSubtypes(t *testing.T) {
	const depth = 12
	m, err := llvmir.Parse("in.ll", []byte(nestedModule(depth, 2)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Lower(m, nil, Options{Mode: Native})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.SpecConsts[0].Descs); n != 1<<depth {
		t.Errorf("%d descriptors, want %d", n, 1<<depth)
	}
}

// flatModule returns a module with one composite spec constant of a
// struct of n i32 fields.
func flatModule(n int) string {
	fields := strings.Repeat("i32, ", n-1) + "i32"
	return fmt.Sprintf(`target datalayout = "e-i64:64-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%%t = type { %[1]s }
%%spec_id = type { %%t }

@name = private unnamed_addr addrspace(1) constant [2 x i8] c"n\00", align 1
@sc = internal addrspace(1) constant %%spec_id zeroinitializer, align 4

define spir_kernel void @k(ptr addrspace(4) %%buf, ptr addrspace(1) %%out) {
entry:
  %%v = call spir_func %%t @_Z40__sycl_getComposite2020SpecConstantValueI1TET_PKcPKvS5_(ptr addrspace(4) addrspacecast (ptr addrspace(1) @name to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(1) @sc to ptr addrspace(4)), ptr addrspace(4) %%buf)
  store %%t %%v, ptr addrspace(1) %%out, align 4
  ret void
}

declare spir_func %%t @_Z40__sycl_getComposite2020SpecConstantValueI1TET_PKcPKvS5_(ptr addrspace(4), ptr addrspace(4), ptr addrspace(4))
`, fields)
}

// BenchmarkLowerFlatStruct lowers a struct of 100,000 fields natively:
// the cost is linear in the fields (each struct's layout is computed once).
func BenchmarkLowerFlatStruct(b *testing.B) {
	m, err := llvmir.Parse("in.ll", []byte(flatModule(100_000)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Lower(m, m.NewPlan(), Options{Mode: Native}); err != nil {
			b.Fatal(err)
		}
	}
}
