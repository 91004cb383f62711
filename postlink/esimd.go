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
func (r *run) lowerESIMD(mod *Module) (bool, error) {
	var funcs []*llvmir.Entity
	for _, e := range mod.globals() {
		if e.Func != nil {
			funcs = append(funcs, e)
		}
	}
	changed, err := esimd.Lower(&esimd.Module{
		M:          r.m,
		Plan:       mod.Plan,
		Funcs:      funcs,
		Defines:    mod.Part.Defines,
		IsESIMD:    split.IsESIMD,
		WholeESIMD: r.o.SplitESIMD,
		Stateful:   r.o.ESIMDStateful,
	})
	if err != nil {
		return false, errorf("-lower-esimd: %s", err)
	}
	return changed, nil
}
