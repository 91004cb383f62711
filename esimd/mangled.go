package esimd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// builtinName is a demangled __esimd_* builtin: its base name and its
// template arguments, as the reference reads them with LLVM's Itanium
// demangler.
type builtinName struct {
	base string // "__esimd_rdregion"
	args []demangle.AST
}

// demangleBuiltin demangles an __esimd_* function name.
func demangleBuiltin(mangled string) (*builtinName, error) {
	ast, err := demangle.ToAST(mangled)
	if err != nil {
		return nil, fmt.Errorf("failed to demangle ESIMD intrinsic %s: %v", mangled, err)
	}
	if ty, ok := ast.(*demangle.Typed); ok {
		ast = ty.Name
	}
	switch n := ast.(type) {
	case *demangle.Template:
		return &builtinName{base: n.Name.(*demangle.Name).Name, args: n.Args}, nil
	case *demangle.Name:
		return &builtinName{base: n.Name}, nil
	}
	return nil, fmt.Errorf("bad ESIMD intrinsic: %s", mangled)
}

// tmplInt returns template argument n as an integer of width bits: the
// width given, or with 0 that of the literal's type (i32 for an int, a
// bool or an enumerator, i8 for a char type, i16 for a short, i64 for a
// long). The value is truncated to the width and sign-extended, as the
// reference builds it (an APInt of that width, then ConstantInt::get with
// its signed value).
func (b *builtinName) tmplInt(n int, bits uint32) (uint32, int64, error) {
	if n >= len(b.args) {
		return 0, 0, fmt.Errorf("%s has no template argument %d", b.base, n)
	}
	lit, ok := b.args[n].(*demangle.Literal)
	if !ok {
		return 0, 0, fmt.Errorf("bad esimd intrinsic template parameter %d of %s: %s", n, b.base, demangle.ASTToString(b.args[n]))
	}
	if bits == 0 {
		bits = 32
		if bt, ok := lit.Type.(*demangle.BuiltinType); ok {
			bits = builtinBits(bt.Name)
		}
		if bits == 0 {
			return 0, 0, fmt.Errorf("template parameter %d of %s has unsupported type %s", n, b.base, demangle.ASTToString(lit.Type))
		}
	}
	v, err := strconv.ParseInt(lit.Val, 10, 64)
	if err != nil {
		uv, err2 := strconv.ParseUint(lit.Val, 10, 64)
		if err2 != nil {
			return 0, 0, fmt.Errorf("template parameter %d of %s: bad value %q", n, b.base, lit.Val)
		}
		v = int64(uv)
	}
	if lit.Neg {
		v = -v
	}
	return bits, signExtend(v, bits), nil
}

// builtinBits is the width of a template literal's builtin type (0 for
// one that is not an integer).
func builtinBits(name string) uint32 {
	switch strings.TrimPrefix(strings.TrimPrefix(name, "unsigned "), "signed ") {
	case "bool", "int", "":
		return 32
	case "char":
		return 8
	case "short":
		return 16
	case "long", "long long":
		return 64
	}
	return 0
}

// signExtend truncates v to bits and sign-extends it.
func signExtend(v int64, bits uint32) int64 {
	if bits >= 64 {
		return v
	}
	sh := 64 - bits
	return v << sh >> sh
}

// intConst writes an integer constant of width bits as LLVM prints it.
func intConst(bits uint32, v int64) string {
	if bits == 1 {
		if v&1 != 0 {
			return "true"
		}
		return "false"
	}
	return strconv.FormatInt(signExtend(v, bits), 10)
}
