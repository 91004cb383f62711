package specconst

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// The SPIR-V friendly names of the native form: the translator turns calls
// of _Z20__spirv_SpecConstant<id type><value type> into OpSpecConstant with
// a SpecId decoration and calls of _Z29__spirv_SpecConstantComposite… into
// OpSpecConstantComposite.
const (
	spirvSpecConstant          = "__spirv_SpecConstant"
	spirvSpecConstantComposite = "__spirv_SpecConstantComposite"
)

// mangleType is the reference's (deliberately simple, not fully
// Itanium-conformant) type mangling: scalars by their C++ codes, structs by
// their LLVM name, arrays as A<n>_<elem>, vectors as Dv<n>_<elem>. The only
// purpose is distinct names for distinct signatures.
func mangleType(t *llvmir.Type) (string, error) {
	switch t.Kind {
	case llvmir.FloatType:
		return "f", nil
	case llvmir.DoubleType:
		return "d", nil
	case llvmir.HalfType:
		return "Dh", nil
	case llvmir.IntType:
		switch t.Bits {
		case 1:
			return "b", nil
		case 8:
			return "a", nil
		case 16:
			return "s", nil
		case 32:
			return "i", nil
		case 64:
			return "x", nil
		}
		return "", fmt.Errorf("unsupported spec constant integer type %s", t)
	case llvmir.StructType:
		// A literal struct has no name: the reference mangles it as "".
		return t.Name, nil
	case llvmir.ArrayType:
		e, err := mangleType(t.Elem)
		return "A" + strconv.FormatUint(t.Len, 10) + "_" + e, err
	case llvmir.VectorType:
		if t.Scalable {
			break
		}
		e, err := mangleType(t.Elem)
		return "Dv" + strconv.FormatUint(t.Len, 10) + "_" + e, err
	}
	return "", fmt.Errorf("unsupported spec constant type %s", t)
}

// mangleFunc mangles base with the parameter types and, for a composite
// return type, "_R" and the return type (several composites can share
// their element types).
func mangleFunc(base string, ret *llvmir.Type, params []*llvmir.Type) (string, error) {
	var b strings.Builder
	b.WriteString("_Z")
	b.WriteString(strconv.Itoa(len(base)))
	b.WriteString(base)
	for _, p := range params {
		s, err := mangleType(p)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	switch ret.Kind {
	case llvmir.ArrayType, llvmir.StructType, llvmir.VectorType:
		s, err := mangleType(ret)
		if err != nil {
			return "", err
		}
		b.WriteString("_R")
		b.WriteString(s)
	}
	return b.String(), nil
}
