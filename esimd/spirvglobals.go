package esimd

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// spirvConstants are the SPIR-V builtin variables whose loads ESIMD code
// replaces with a constant, as the reference's translateSpirvGlobalUses
// does: an ESIMD kernel runs one work-item per thread, so the sub-group is
// that one work-item (its local ID 0, its size and maximum size 1).
var spirvConstants = map[string]string{
	"__spirv_BuiltInSubgroupLocalInvocationId": "0",
	"__spirv_BuiltInSubgroupSize":              "1",
	"__spirv_BuiltInSubgroupMaxSize":           "1",
}

// lowerSpirvGlobals replaces the loads of the constant SPIR-V builtin
// variables in ESIMD function f: each load goes and its uses take the
// constant. A load of any other variable is kept.
func (l *lowering) lowerSpirvGlobals(f *llvmir.Entity) {
	text := string(f.Text)
	if !strings.Contains(text, "@__spirv_BuiltInSubgroup") {
		return
	}
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text) - off
		}
		line := text[off : off+end]
		if result, c, start, stop, ok := spirvConstantLoad(line); ok {
			l.body(f).Replace(f.Off+off+start, f.Off+off+stop, result, c)
		}
		off += end + 1
	}
}

// spirvConstantLoad parses line as "%r = load [volatile] iN, <ptr> @var…"
// where @var is one of spirvConstants, and returns r, the constant and
// the instruction's extent in the line (a load has no string operand, so
// a ';' starts its comment).
func spirvConstantLoad(line string) (result, c string, start, stop int, ok bool) {
	start = len(line) - len(strings.TrimLeft(line, " \t"))
	inst := line[start:]
	// The extent runs to the end of the line, a trailing comment included,
	// so that the line goes with the load.
	stop = start + len(strings.TrimRight(inst, " \t\r"))
	if i := strings.IndexByte(inst, ';'); i >= 0 {
		inst = inst[:i]
	}
	inst = strings.TrimRight(inst, " \t\r")
	name, rest, found := strings.Cut(inst, " = ")
	if !found || len(name) < 2 || name[0] != '%' || name[1] == '"' {
		return "", "", 0, 0, false
	}
	rest, found = strings.CutPrefix(rest, "load ")
	if !found {
		return "", "", 0, 0, false
	}
	rest = strings.TrimPrefix(rest, "volatile ")
	ty, ptr, found := strings.Cut(rest, ", ")
	if !found || !isIntType(ty) {
		return "", "", 0, 0, false
	}
	i := strings.IndexByte(ptr, '@')
	if i < 0 || strings.IndexByte(ptr[i+1:], '@') >= 0 {
		return "", "", 0, 0, false
	}
	g := ptr[i+1:]
	n := 0
	for n < len(g) && isNameChar(g[n]) {
		n++
	}
	c, ok = spirvConstants[g[:n]]
	if !ok {
		return "", "", 0, 0, false
	}
	return name[1:], c, start, stop, true
}

// isIntType reports whether ty is an integer type (i1, i32, …).
func isIntType(ty string) bool {
	if len(ty) < 2 || ty[0] != 'i' {
		return false
	}
	for i := 1; i < len(ty); i++ {
		if ty[i] < '0' || ty[i] > '9' {
			return false
		}
	}
	return true
}
