package esimd

import (
	"fmt"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// genxArg is one argument of a GenX call being built.
type genxArg struct {
	ty  *llvmir.Type
	val string
}

func (g genxArg) String() string { return g.ty.String() + " " + g.val }

func intType(bits uint32) *llvmir.Type { return &llvmir.Type{Kind: llvmir.IntType, Bits: bits} }

// lowerTable replaces call c of an __esimd_* builtin with the GenX
// intrinsic call the table describes, as the reference's
// translateESIMDIntrinsicCall does: the arguments made by the entry's
// rules, the name from the spelling, the suffix and the overloaded types,
// the result named "<call's name>.esimd" and, when the intrinsic's result
// type is not the call's, cast to it ("….cast.ty").
func (l *lowering) lowerTable(f *llvmir.Entity, c *llvmir.Call, bn *builtinName) error {
	stem := strings.TrimPrefix(bn.base, "__esimd_")
	d, ok := intrinTable[stem]
	if !ok {
		return fmt.Errorf("unknown ESIMD intrinsic: %s", stem)
	}
	if c.Op != "call" {
		return fmt.Errorf("an ESIMD intrinsic is %sd, not called", c.Op)
	}
	suffix, err := tableSuffix(d, c, bn)
	if err != nil {
		return err
	}
	b := l.body(f)
	args, lines, err := tableArgs(b, d, c, bn)
	if err != nil {
		return err
	}
	spelling := d.genx + suffix
	sig, ok := genxSigs[spelling]
	if !ok {
		return fmt.Errorf("llvm.genx.%s has no known definition", spelling)
	}
	if sig.ret == "{*,*}" {
		return l.lowerPairResult(f, c, spelling, args, lines)
	}
	call, err := genxCall(c, spelling, sig, args)
	if err != nil {
		return err
	}
	l.declare(call.name, call.decl())
	return l.emitCall(b, c, call, lines)
}

// genxCallee is a GenX intrinsic with the types of one call of it.
type genxCallee struct {
	name string
	ret  *llvmir.Type
	args []genxArg
}

func (g *genxCallee) decl() string {
	types := make([]string, len(g.args))
	for i, a := range g.args {
		types[i] = a.ty.String()
	}
	return fmt.Sprintf("declare %s @%s(%s) \"VCFunction\"", g.ret, g.name, strings.Join(types, ", "))
}

// genxCall names the GenX intrinsic spelling for call c and its
// arguments: "llvm.genx.<spelling>" followed by the mangled result type
// when it is overloaded and the mangled types of the overloaded
// arguments, in order.
func genxCall(c *llvmir.Call, spelling string, sig genxSig, args []genxArg) (*genxCallee, error) {
	if spelling == "test.src.tmpl.arg" {
		return &genxCallee{name: "llvm.genx." + spelling, ret: c.FnType.Ret, args: args}, nil
	}
	if len(sig.args) != len(args) {
		return nil, fmt.Errorf("llvm.genx.%s takes %d arguments, the table makes %d", spelling, len(sig.args), len(args))
	}
	g := &genxCallee{name: "llvm.genx." + spelling, args: args}
	switch sig.ret {
	case "*":
		g.ret = c.FnType.Ret
		if g.ret.Kind == llvmir.VoidType {
			return nil, fmt.Errorf("llvm.genx.%s returns a value, the call none", spelling)
		}
		g.name += "." + mangleType(g.ret)
	case "void":
		g.ret = &llvmir.Type{Kind: llvmir.VoidType}
	case "i1":
		g.ret = intType(1)
	case "i32":
		g.ret = intType(32)
	}
	for i, a := range args {
		if sig.args[i] == 'o' {
			g.name += "." + mangleType(a.ty)
		}
	}
	return g, nil
}

// emitCall writes the GenX call in place of c, after lines (argument
// conversions), casting its result to c's type when they differ.
func (l *lowering) emitCall(b *llvmir.BodyEdit, c *llvmir.Call, g *genxCallee, lines []string) error {
	argText := make([]string, len(g.args))
	for i, a := range g.args {
		argText[i] = a.String()
	}
	call := fmt.Sprintf("call %s @%s(%s)", g.ret, g.name, strings.Join(argText, ", "))
	if g.ret.Kind == llvmir.VoidType {
		l.replaceCall(b, c, "", "", append(lines, call)...)
		return nil
	}
	name := b.NewName(localName(c) + ".esimd")
	lines = append(lines, "%"+llvmir.QuoteName(name)+" = "+call)
	val := "%" + llvmir.QuoteName(name)
	if want := c.FnType.Ret; want.String() != g.ret.String() {
		op, err := castOp(g.ret, want)
		if err != nil {
			return err
		}
		cast := b.NewName(name + ".cast.ty")
		lines = append(lines, fmt.Sprintf("%%%s = %s %s %s to %s", llvmir.QuoteName(cast), op, g.ret, val, want))
		val = "%" + llvmir.QuoteName(cast)
	}
	l.replaceCall(b, c, c.Result, val, lines...)
	return nil
}

// localName is the name of c's result for names derived from it: "" when
// it has none or is numbered.
func localName(c *llvmir.Call) string {
	if c.ResultNumbered {
		return ""
	}
	return strings.Trim(c.Result, `"`)
}

// castOp is CastInst::getCastOpcode for unsigned values: the cast from
// type from to type to.
func castOp(from, to *llvmir.Type) (string, error) {
	fe, te := from, to
	if from.Kind == llvmir.VectorType && to.Kind == llvmir.VectorType && from.Len == to.Len {
		fe, te = from.Elem, to.Elem
	}
	if fe.Kind == llvmir.IntType && te.Kind == llvmir.IntType && (fe == from) == (te == to) {
		switch {
		case fe.Bits < te.Bits:
			return "zext", nil
		case fe.Bits > te.Bits:
			return "trunc", nil
		}
		return "bitcast", nil
	}
	return "", fmt.Errorf("no cast from %s to %s", from, to)
}

// tableSuffix is the GenX name suffix of entry d for call c.
func tableSuffix(d intrinDesc, c *llvmir.Call, bn *builtinName) (string, error) {
	switch d.suffix.kind {
	case binOpSufx:
		_, op, err := bn.tmplInt(d.suffix.n, 0)
		if err != nil {
			return "", err
		}
		s, ok := atomicOps[op]
		if !ok {
			return "", fmt.Errorf("unknown atomic OP %d", op)
		}
		return s, nil
	case numKindSfx:
		ty := c.FnType.Ret
		if d.suffix.n >= 0 {
			if d.suffix.n >= len(c.Args) {
				return "", fmt.Errorf("argument %d is missing", d.suffix.n)
			}
			ty = c.Args[d.suffix.n].Type
		}
		if ty.Kind == llvmir.VectorType {
			ty = ty.Elem
		}
		if ty.IsFloat() {
			return "f", nil
		}
		return "i", nil
	}
	return "", nil
}
