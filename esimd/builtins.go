package esimd

import (
	"fmt"

	"github.com/sycbuild/sycbuild/llvmir"
)

// A builtin lowers one call of an __esimd_* builtin.
type builtin func(l *lowering, f *llvmir.Entity, c *llvmir.Call) error

// builtins are the __esimd_* builtins (by mangled name) the lowering
// handles, each as the reference lowers it.
var builtins = map[string]builtin{
	// __esimd_barrier() is the GenX barrier intrinsic.
	"_Z15__esimd_barrierv": func(l *lowering, f *llvmir.Entity, c *llvmir.Call) error {
		return l.replace(f, c, "call void @llvm.genx.barrier()", "llvm.genx.barrier", "declare void @llvm.genx.barrier() \"VCFunction\"")
	},
	// __esimd_nbarrier_init(n) sets the named-barrier count of the kernels
	// that reach it (the largest count wins) and goes
	// (translateNbarrierInit).
	"_Z21__esimd_nbarrier_inith": func(l *lowering, f *llvmir.Entity, c *llvmir.Call) error {
		n, err := constArg(c, 0)
		if err != nil {
			return fmt.Errorf("named barrier count: %v", err)
		}
		if n == 0 {
			return fmt.Errorf("a zero named barrier count is requested")
		}
		l.kernelsOf(f, func(k *llvmir.Entity) { l.kernelNBar[k] = max(l.kernelNBar[k], n) })
		return l.erase(f, c)
	},
	// __esimd_slm_init(size) sets the SLM size of the kernels that reach
	// it (the largest size wins) and goes.
	"_Z16__esimd_slm_initj": func(l *lowering, f *llvmir.Entity, c *llvmir.Call) error {
		n, err := constArg(c, 0)
		if err != nil {
			return fmt.Errorf("SLM size: %v", err)
		}
		l.kernelsOf(f, func(k *llvmir.Entity) { l.kernelSLM[k] = max(l.kernelSLM[k], n) })
		return l.erase(f, c)
	},
}
