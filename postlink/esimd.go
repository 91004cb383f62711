package postlink

import (
	"slices"

	"github.com/sycbuild/sycbuild/esimd"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// lowerESIMD is -lower-esimd on one module holding ESIMD code: its ESIMD
// functions are lowered (package esimd) before specialization constants,
// as the reference's handleESIMD runs before them. The optnone removal
// applies when ESIMD code was split out (-split-esimd), as the reference
// passes it.
func (r *run) lowerESIMD(mod *Module) (bool, []string, error) {
	var funcs []*llvmir.Entity
	for _, e := range mod.globals() {
		if e.Func != nil {
			funcs = append(funcs, e)
		}
	}
	em := &esimd.Module{
		M:          r.m,
		Plan:       mod.Plan,
		Funcs:      funcs,
		Defines:    mod.Part.Defines,
		IsESIMD:    esimdCode(funcs, mod.Part.Defines),
		WholeESIMD: r.o.SplitESIMD,
		Stateful:   r.o.ESIMDStateful,
	}
	changed, err := esimd.Lower(em)
	if err != nil {
		return false, nil, errorf("-lower-esimd: %s", err)
	}
	return changed, em.Warnings, nil
}

// esimdCode reports which functions are ESIMD code: those marked
// !sycl_explicit_simd and the functions they reach by direct calls that no
// SYCL code reaches too, as the reference's ESIMD split puts an ESIMD
// kernel's call graph into the ESIMD module, whose functions its LowerESIMD
// pass then lowers alike (so an __esimd_* call in an unmarked helper is
// lowered, or refused). A function SYCL code calls as well stays as it is:
// the reference would lower a copy of it, which sycbuild does not make.
func esimdCode(funcs []*llvmir.Entity, defines func(*llvmir.Entity) bool) func(*llvmir.Entity) bool {
	var esimdRoots, syclRoots []*llvmir.Entity
	for _, f := range funcs {
		if split.IsESIMD(f) {
			esimdRoots = append(esimdRoots, f)
		}
	}
	fromESIMD := reached(esimdRoots, defines)
	for _, f := range funcs {
		if defines(f) && !split.IsESIMD(f) && (f.Func.CallingConv == "spir_kernel" || !fromESIMD[f]) {
			syclRoots = append(syclRoots, f)
		}
	}
	fromSYCL := reached(syclRoots, defines)
	return func(e *llvmir.Entity) bool {
		return split.IsESIMD(e) || fromESIMD[e] && !fromSYCL[e]
	}
}

// reached returns the functions roots reach by direct calls, roots
// included.
func reached(roots []*llvmir.Entity, defines func(*llvmir.Entity) bool) map[*llvmir.Entity]bool {
	reach := map[*llvmir.Entity]bool{}
	work := slices.Clone(roots)
	for _, f := range roots {
		reach[f] = true
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if !defines(f) {
			continue
		}
		for _, c := range f.Func.Callees {
			if !reach[c] {
				reach[c] = true
				work = append(work, c)
			}
		}
	}
	return reach
}
