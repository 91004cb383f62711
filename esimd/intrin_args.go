package esimd

import (
	"fmt"

	"github.com/sycbuild/sycbuild/llvmir"
)

// tableArgs makes the GenX arguments of entry d for call c (the
// reference's createESIMDIntrinsicArgs); lines are the instructions the
// conversions need before the call.
func tableArgs(b *llvmir.BodyEdit, d intrinDesc, c *llvmir.Call, bn *builtinName) (args []genxArg, lines []string, err error) {
	last := 0 // the last call argument used, where l() starts
	callArg := func(n int) (genxArg, error) {
		if n < 0 || n >= len(c.Args) {
			return genxArg{}, fmt.Errorf("argument %d is missing", n)
		}
		last = n
		return genxArg{c.Args[n].Type, c.Args[n].Value}, nil
	}
	for _, r := range d.rules {
		switch r.kind {
		case ruleArg:
			g, err := callArg(r.n)
			if err != nil {
				return nil, nil, err
			}
			args = append(args, g)
		case ruleArgI1:
			g, err := callArg(r.n)
			if err != nil {
				return nil, nil, err
			}
			g, line, err := toI1(b, g)
			if err != nil {
				return nil, nil, fmt.Errorf("argument %d: %v", r.n, err)
			}
			if line != "" {
				lines = append(lines, line)
			}
			args = append(args, g)
		case ruleRest:
			for n := last; n < len(c.Args); n++ {
				args = append(args, genxArg{c.Args[n].Type, c.Args[n].Value})
			}
		case ruleTmpl:
			bits, v, err := bn.tmplInt(r.n, r.bits)
			if err != nil {
				return nil, nil, err
			}
			args = append(args, genxArg{intType(bits), intConst(bits, v)})
		case ruleUndef:
			ty := c.FnType.Ret
			if r.n >= 0 {
				g, err := callArg(r.n)
				if err != nil {
					return nil, nil, err
				}
				ty = g.ty
			}
			args = append(args, genxArg{ty, "undef"})
		case ruleConst:
			args = append(args, genxArg{intType(r.bits), intConst(r.bits, int64(r.n))})
		}
	}
	return args, lines, nil
}

// toI1 converts an integer or integer vector g to i1 elements, "icmp ne
// g, 0", folded as IRBuilder folds it when g is a constant.
func toI1(b *llvmir.BodyEdit, g genxArg) (genxArg, string, error) {
	ty := g.ty
	var to *llvmir.Type
	switch {
	case ty.Kind == llvmir.IntType:
		to = intType(1)
	case ty.Kind == llvmir.VectorType && ty.Elem.Kind == llvmir.IntType:
		to = &llvmir.Type{Kind: llvmir.VectorType, Len: ty.Len, Scalable: ty.Scalable, Elem: intType(1)}
	default:
		return genxArg{}, "", fmt.Errorf("an integer or integer vector is expected, not %s", ty)
	}
	if folded, ok := foldNeZero(ty, g.val); ok {
		return genxArg{to, folded}, "", nil
	}
	v := b.NewValue()
	return genxArg{to, v}, fmt.Sprintf("%s = icmp ne %s, %s", v, g, zeroOf(ty)), nil
}

// zeroOf is the zero constant of an integer or integer vector type.
func zeroOf(ty *llvmir.Type) string {
	if ty.Kind == llvmir.VectorType {
		return "zeroinitializer"
	}
	return "0"
}
