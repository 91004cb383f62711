package esimd

import (
	"fmt"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// lowerPackMask is the reference's translatePackMask: the N-element mask
// (argument 0, N template argument 0) compared "ne 0", bitcast to iN and,
// unless N is 32, zero-extended to i32; the last value takes the call's
// name (made unique). A constant mask, which the reference's builder folds
// into a constant it then cannot name, is refused.
func (l *lowering) lowerPackMask(f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
	_, n, err := bn.tmplInt(0, 0)
	if err != nil {
		return err
	}
	if len(c.Args) != 1 || !strings.HasPrefix(c.Args[0].Value, "%") {
		return fmt.Errorf("one non-constant mask argument is expected")
	}
	b := l.body(f)
	cmp, line, err := toI1(b, genxArg{c.Args[0].Type, c.Args[0].Value})
	if err != nil {
		return err
	}
	iN := intType(uint32(n))
	lines := []string{line}
	val := loadName(b, c)
	if n == 32 {
		lines = append(lines, fmt.Sprintf("%s = bitcast %s to %s", val, cmp, iN))
	} else {
		bc := b.NewValue()
		lines = append(lines, fmt.Sprintf("%s = bitcast %s to %s", bc, cmp, iN),
			fmt.Sprintf("%s = zext %s %s to i32", val, iN, bc))
	}
	l.replaceCall(b, c, c.Result, val, lines...)
	return nil
}

// lowerUnpackMask is the reference's translateUnPackMask: the i32 argument
// truncated to iN (N template argument 0) when wider, bitcast to
// <N x i1> and zero-extended to <N x i16>, which takes the call's name.
func (l *lowering) lowerUnpackMask(f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
	_, n, err := bn.tmplInt(0, 0)
	if err != nil {
		return err
	}
	if len(c.Args) != 1 || !strings.HasPrefix(c.Args[0].Value, "%") || c.Args[0].Type.Kind != llvmir.IntType {
		return fmt.Errorf("one non-constant integer argument is expected")
	}
	b := l.body(f)
	arg := genxArg{c.Args[0].Type, c.Args[0].Value}
	var lines []string
	if arg.ty.Bits > uint32(n) {
		v := b.NewValue()
		lines = append(lines, fmt.Sprintf("%s = trunc %s to i%d", v, arg, n))
		arg = genxArg{intType(uint32(n)), v}
	} else if arg.ty.Bits != uint32(n) {
		return fmt.Errorf("an integer of at least %d bits is expected, not %s", n, arg.ty)
	}
	bits := b.NewValue()
	lines = append(lines, fmt.Sprintf("%s = bitcast %s to <%d x i1>", bits, arg, n))
	val := b.NewValue()
	if name := localName(c); name != "" {
		val = "%" + llvmir.QuoteName(name)
	}
	lines = append(lines, fmt.Sprintf("%s = zext <%d x i1> %s to <%d x i16>", val, n, bits, n))
	l.replaceCall(b, c, c.Result, val, lines...)
	return nil
}
