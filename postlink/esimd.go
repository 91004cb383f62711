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
		IsESIMD:    split.IsESIMD,
		WholeESIMD: r.o.SplitESIMD,
		Stateful:   r.o.ESIMDStateful,
	}
	changed, err := esimd.Lower(em)
	if err != nil {
		return false, nil, errorf("-lower-esimd: %s", err)
	}
	return changed, em.Warnings, nil
}
