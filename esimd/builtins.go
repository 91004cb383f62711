package esimd

import (
	"fmt"
	"strings"

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

// unknownBuiltin is the error for a builtin neither in the table nor a
// special case (the reference's "unknown ESIMD intrinsic").
type unknownBuiltin struct{ base string }

func (e *unknownBuiltin) Error() string {
	return e.base + " is neither in the reference's table of ESIMD intrinsics nor one of its special cases"
}

// special are the builtins the reference lowers before its table, by the
// prefix of their name (so "__esimd_svm_block_ld" covers
// "__esimd_svm_block_ld_unaligned" too), in the order it tests them.
var special = []struct {
	prefix string
	lower  func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error
}{
	{"__esimd_svm_block_ld", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerBlockLoad(f, c, bn, false)
	}},
	{"__esimd_slm_block_ld", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerBlockLoad(f, c, bn, true)
	}},
	{"__esimd_svm_block_st", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerBlockStore(f, c, bn, false)
	}},
	{"__esimd_slm_block_st", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerBlockStore(f, c, bn, true)
	}},
	{"__esimd_gather_ld", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerGatherLoad(f, c, bn, false)
	}},
	{"__esimd_slm_gather_ld", func(l *lowering, f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
		return l.lowerGatherLoad(f, c, bn, true)
	}},
	{"__esimd_pack_mask", (*lowering).lowerPackMask},
	{"__esimd_unpack_mask", (*lowering).lowerUnpackMask},
	{"__esimd_vload", (*lowering).lowerVLoad},
	{"__esimd_vstore", (*lowering).lowerVStore},
}

// lowerBuiltin lowers call c of an __esimd_* builtin not in builtins: a
// special case when its name starts with one's prefix, else by the table.
func (l *lowering) lowerBuiltin(f *llvmir.Entity, c *llvmir.Call) error {
	rest := strings.TrimLeft(strings.TrimPrefix(c.Callee.Name, "_Z"), "0123456789")
	bn, err := demangleBuiltin(c.Callee.Name)
	if err != nil {
		return err
	}
	for _, s := range special {
		if strings.HasPrefix(rest, s.prefix) {
			return s.lower(l, f, c, bn)
		}
	}
	if _, ok := intrinTable[strings.TrimPrefix(bn.base, "__esimd_")]; !ok {
		return &unknownBuiltin{bn.base}
	}
	return l.lowerTable(f, c, bn)
}
