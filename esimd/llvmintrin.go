package esimd

import (
	"fmt"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// lowerLLVMIntrinsic is the reference's translateLLVMIntrinsic, for the
// vector backend: llvm.assume goes, llvm.fmuladd becomes an fmul and an
// fadd; other LLVM intrinsics stay.
func (l *lowering) lowerLLVMIntrinsic(f *llvmir.Entity, c *llvmir.Call) {
	name := c.Callee.Name
	switch {
	case name == "llvm.assume":
		l.body(f).Replace(c.Start, c.End, "", "")
	case strings.HasPrefix(name, "llvm.fmuladd.") && len(c.Args) == 3 && c.Op == "call":
		b := l.body(f)
		mul, add := b.NewValue(), b.NewValue()
		ty := c.Args[0].Type
		l.replaceCall(b, c, c.Result, add,
			fmt.Sprintf("%s = fmul %s %s, %s", mul, ty, c.Args[0].Value, c.Args[1].Value),
			fmt.Sprintf("%s = fadd %s %s, %s", add, ty, mul, c.Args[2].Value))
	}
}
