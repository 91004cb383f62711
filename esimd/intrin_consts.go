package esimd

import (
	"math/big"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// intElems returns the elements of integer (vector) constant val of type
// ty: nil, false when val is not a plain integer constant.
func intElems(ty *llvmir.Type, val string) ([]*big.Int, bool) {
	val = strings.TrimSpace(val)
	n := 1
	if ty.Kind == llvmir.VectorType {
		if ty.Scalable {
			return nil, false
		}
		n = int(ty.Len)
	}
	switch {
	case val == "zeroinitializer" || val == "false" || val == "null":
		out := make([]*big.Int, n)
		for i := range out {
			out[i] = new(big.Int)
		}
		return out, true
	case val == "true" && ty.Kind == llvmir.IntType:
		return []*big.Int{big.NewInt(1)}, true
	case ty.Kind == llvmir.IntType:
		v, ok := new(big.Int).SetString(val, 10)
		return []*big.Int{v}, ok
	case strings.HasPrefix(val, "<") && strings.HasSuffix(val, ">"):
		parts := strings.Split(val[1:len(val)-1], ",")
		if len(parts) != n {
			return nil, false
		}
		out := make([]*big.Int, n)
		for i, p := range parts {
			f := strings.Fields(p)
			if len(f) != 2 {
				return nil, false
			}
			e, ok := intElems(ty.Elem, f[1])
			if !ok {
				return nil, false
			}
			out[i] = e[0]
		}
		return out, true
	}
	return nil, false
}

// foldNeZero folds "icmp ne val, 0" for a constant val of integer (vector)
// type ty: undef and poison stay what they are, a vector of all false is
// zeroinitializer.
func foldNeZero(ty *llvmir.Type, val string) (string, bool) {
	if val == "undef" || val == "poison" {
		return val, true
	}
	elems, ok := intElems(ty, val)
	if !ok {
		return "", false
	}
	bits := make([]bool, len(elems))
	for i, e := range elems {
		bits[i] = e.Sign() != 0
	}
	return i1Const(ty.Kind == llvmir.VectorType, bits), true
}

// i1Const writes an i1 or <N x i1> constant.
func i1Const(vector bool, bits []bool) string {
	if !vector {
		return intConst(1, b2i(bits[0]))
	}
	any := false
	parts := make([]string, len(bits))
	for i, v := range bits {
		any = any || v
		parts[i] = "i1 " + intConst(1, b2i(v))
	}
	if !any {
		return "zeroinitializer"
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
