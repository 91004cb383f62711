package esimd

import (
	"fmt"

	"github.com/sycbuild/sycbuild/llvmir"
)

// devicelibConversions are the extern "C" bfloat16 conversions of the
// device library the reference's table maps to SPIR-V builtins: the
// builtin and the type of the value its argument points to.
var devicelibConversions = map[string]struct{ spirv, arg string }{
	"__devicelib_ConvertFToBF16INTEL": {"__spirv_ConvertFToBF16INTEL", "float"},
	"__devicelib_ConvertBF16ToFINTEL": {"__spirv_ConvertBF16ToFINTEL", "i16"},
}

// lowerDevicelib is the reference's createDeviceLibESIMDDeclaration: the
// value argument 0 points to is loaded and passed to the SPIR-V builtin
// (declared dso_local spir_func, nounwind convergent), whose call takes the
// name "<call's name>.esimd".
func (l *lowering) lowerDevicelib(f *llvmir.Entity, c *llvmir.Call) error {
	conv := devicelibConversions[c.Callee.Name]
	if len(c.Args) != 1 || c.Args[0].Type.Kind != llvmir.PtrType || c.Op != "call" {
		return fmt.Errorf("one pointer argument is expected")
	}
	ret := c.FnType.Ret
	argTy, err := l.mod.M.ParseType(conv.arg)
	if err != nil {
		return err
	}
	align, err := l.abiAlign(argTy)
	if err != nil {
		return err
	}
	b := l.body(f)
	v := b.NewValue()
	p := genxArg{c.Args[0].Type, c.Args[0].Value}
	lines := []string{fmt.Sprintf("%s = load %s, %s, align %d", v, conv.arg, p, align)}
	l.declare(conv.spirv, fmt.Sprintf("declare dso_local spir_func %s @%s(%s) convergent nounwind", ret, conv.spirv, conv.arg))
	call := fmt.Sprintf("call %s @%s(%s %s)", ret, conv.spirv, conv.arg, v)
	if ret.Kind == llvmir.VoidType {
		l.replaceCall(b, c, "", "", append(lines, call)...)
		return nil
	}
	name := "%" + llvmir.QuoteName(b.NewName(localName(c)+".esimd"))
	l.replaceCall(b, c, c.Result, name, append(lines, name+" = "+call)...)
	return nil
}

// isDevicelibConversion reports whether name is one of
// devicelibConversions.
func isDevicelibConversion(name string) bool {
	_, ok := devicelibConversions[name]
	return ok
}
