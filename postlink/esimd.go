package postlink

import (
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
// !sycl_explicit_simd and every function they reach by direct calls, as
// the reference's ESIMD split puts an ESIMD kernel's call graph into the
// ESIMD module, whose functions its LowerESIMD pass then lowers alike
// (so an __esimd_* call in an unmarked helper is lowered, or refused).
func esimdCode(funcs []*llvmir.Entity, defines func(*llvmir.Entity) bool) func(*llvmir.Entity) bool {
	reach := map[*llvmir.Entity]bool{}
	var work []*llvmir.Entity
	for _, f := range funcs {
		if split.IsESIMD(f) {
			reach[f] = true
			work = append(work, f)
		}
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
	return func(e *llvmir.Entity) bool { return reach[e] }
}
