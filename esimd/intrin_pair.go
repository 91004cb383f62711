package esimd

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// lowerPairResult lowers add with carry and subtract with borrow, whose
// GenX intrinsics return a pair {T, T} (T the type of the first operand)
// the builtin returns through its first argument, an addrspacecast of
// the result's memory: the reference calls the intrinsic without that
// argument and stores the pair to the cast's operand (bitcast to a pointer
// to the pair when pointers are typed).
func (l *lowering) lowerPairResult(f *llvmir.Entity, c *llvmir.Call, spelling string, args []genxArg, lines []string) error {
	if len(args) < 3 {
		return fmt.Errorf("a result pointer and two operands are expected")
	}
	src, err := l.addrspaceCastOperand(f, args[0].val)
	if err != nil {
		return err
	}
	elem := args[1].ty
	pair := &llvmir.Type{Kind: llvmir.StructType, Fields: []*llvmir.Type{elem, elem}}
	g := &genxCallee{name: "llvm.genx." + spelling + "." + mangleType(elem) + "." + mangleType(elem), ret: pair, args: args[1:]}
	l.declare(g.name, g.decl())
	b := l.body(f)
	argText := make([]string, len(g.args))
	for i, a := range g.args {
		argText[i] = a.String()
	}
	res := "%" + llvmir.QuoteName(b.NewName(localName(c)+".esimd"))
	lines = append(lines, fmt.Sprintf("%s = call %s @%s(%s)", res, pair, g.name, strings.Join(argText, ", ")))
	if l.typedPointers() {
		pp := l.ptrTo(pair, 0)
		if src.ty.String() != pp.String() {
			v := b.NewValue()
			lines = append(lines, fmt.Sprintf("%s = bitcast %s to %s", v, src, pp))
			src = genxArg{pp, v}
		}
	}
	align, err := l.abiAlign(pair)
	if err != nil {
		return err
	}
	lines = append(lines, fmt.Sprintf("store %s %s, %s, align %d", pair, res, src, align))
	l.replaceCall(b, c, c.Result, "", lines...)
	return nil
}

// addrspaceCastOperand finds the instruction "%v = addrspacecast T X to
// U" of f defining value v and returns its operand X.
func (l *lowering) addrspaceCastOperand(f *llvmir.Entity, v string) (genxArg, error) {
	if !strings.HasPrefix(v, "%") {
		return genxArg{}, fmt.Errorf("unexpected instruction for returning a structure from a function: %s", v)
	}
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(v) + `\s*=\s*addrspacecast\s+(.+?)\s+(%[-\w.$"]+)\s+to\s`)
	m := re.FindStringSubmatch(string(f.Text))
	if m == nil {
		return genxArg{}, fmt.Errorf("unexpected instruction for returning a structure from a function: %s is not an addrspacecast", v)
	}
	ty, err := l.mod.M.ParseType(m[1])
	if err != nil {
		return genxArg{}, err
	}
	return genxArg{ty, m[2]}, nil
}
