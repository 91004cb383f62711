package esimd

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// inlineTrivial inlines call c of ESIMD function f when its callee is an
// ESIMD function the lowering makes alwaysinline and whose body only
// returns (a constant, an argument, or nothing): the call goes and its
// value becomes what the callee returns. That is what the reference's
// AlwaysInliner leaves for such a callee (an invoke_simd target
// typically); callees with more code keep their call, and alwaysinline
// tells the vector backend to inline them.
func (l *lowering) inlineTrivial(f *llvmir.Entity, c *llvmir.Call) {
	g := c.Callee
	if g.Func == nil || !l.mod.Defines(g) || !l.mod.IsESIMD(g) || g.Func.CallingConv == "spir_kernel" || g.Func.VarArg || c.Op != "call" {
		return
	}
	if _, ok := l.mod.M.Attr(g, "alwaysinline"); !ok && !l.deltaOf(g).add.Has("alwaysinline") {
		return
	}
	ret, ok := onlyReturn(g)
	if !ok {
		return
	}
	with := ""
	if ret != "" {
		with = ret
		if strings.HasPrefix(ret, "%") {
			// An argument: the call's operand in its place.
			with = ""
			for i, p := range g.Func.Params {
				if p.Name != "" && "%"+p.Name == ret && i < len(c.Args) {
					with = c.Args[i].Value
				}
			}
			if with == "" {
				return
			}
		}
	}
	if c.Result == "" {
		with = ""
	}
	l.body(f).Replace(c.Start, c.End, c.Result, with)
}

// onlyReturn reports whether function g's body is one block holding one
// "ret" instruction, and returns its value ("" for ret void).
func onlyReturn(g *llvmir.Entity) (string, bool) {
	text := string(g.Text)
	open := strings.LastIndex(text, "{\n")
	close := strings.LastIndex(text, "}")
	if open < 0 || close < open {
		return "", false
	}
	var insts []string
	for _, line := range strings.Split(text[open+2:close], "\n") {
		line = strings.TrimSpace(line)
		if i := strings.IndexByte(line, ';'); i >= 0 && !strings.Contains(line[:i], "\"") {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasSuffix(line, ":") && !strings.Contains(line, " ") {
			continue // a blank line, a comment or the entry label
		}
		insts = append(insts, line)
	}
	if len(insts) != 1 || !strings.HasPrefix(insts[0], "ret ") {
		return "", false
	}
	r := strings.TrimPrefix(insts[0], "ret ")
	if r == "void" {
		return "", true
	}
	if strings.Contains(r, "!") {
		return "", false // metadata attachments: leave the call
	}
	// "T V": the value is what follows the type.
	if g.Func.RetType == nil {
		return "", false
	}
	v, ok := strings.CutPrefix(r, g.Func.RetType.String()+" ")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(v), true
}
