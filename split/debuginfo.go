package split

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// fieldRef finds "name: !N" among a specialized node's fields (outside
// strings) and returns N and the byte range of the whole "name: !N" in
// fields; ok is false when the field is absent or not a reference.
func fieldRef(fields, name string) (n int, start, end int, ok bool) {
	inStr := false
	for i := 0; i < len(fields); i++ {
		c := fields[i]
		if inStr {
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		if !strings.HasPrefix(fields[i:], name+":") || (i > 0 && isFieldChar(fields[i-1])) {
			continue
		}
		j := i + len(name) + 1
		for j < len(fields) && fields[j] == ' ' {
			j++
		}
		if j >= len(fields) || fields[j] != '!' {
			return 0, 0, 0, false
		}
		k := j + 1
		for k < len(fields) && fields[k] >= '0' && fields[k] <= '9' {
			k++
		}
		v, err := strconv.Atoi(fields[j+1 : k])
		if err != nil {
			return 0, 0, 0, false
		}
		return v, i, k, true
	}
	return 0, 0, 0, false
}

func isFieldChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cuGlobals returns the number of a compile unit's globals: list, or nil.
func cuGlobals(n *llvmir.MDNode) *int {
	if v, _, _, ok := fieldRef(n.Fields, "globals"); ok {
		return &v
	}
	return nil
}

// stripDeadDebugInfo is the reference's SYCLStripDeadDebugInfo (in its
// default, aggressive mode) for what it changes in a split module: each
// compile unit keeps in its globals: list only the variable expressions of
// global variables the module still defines (unlike LLVM's
// StripDeadDebugInfoPass, not the constant ones: a constant a function of
// the module uses belongs to that function's unit, which stays); an
// emptied list is dropped from the unit; and !llvm.dbg.cu keeps only the
// units still live (stripDeadUnits).
func (p *Part) stripDeadDebugInfo(plan *llvmir.Plan) {
	m := p.s.M
	var liveExpr map[*llvmir.Entity]bool
	// withGlobals are the units left with a globals: list.
	withGlobals := map[*llvmir.Entity]bool{}
	defer func() { p.stripDeadUnits(plan, withGlobals) }()
	for _, cu := range p.s.md.cus {
		list := m.MD(*cuGlobals(cu.Node))
		if list == nil || list.Node == nil {
			continue
		}
		withGlobals[cu] = len(list.Node.Ops) > 0
		if liveExpr == nil {
			liveExpr = map[*llvmir.Entity]bool{}
			for _, i := range p.written {
				e := m.Entities[i]
				if e.Var == nil || p.st[i] != stDef {
					continue
				}
				for _, a := range e.Var.Attachments {
					if a.Kind == "dbg" && a.Ref != nil {
						liveExpr[a.Ref] = true
					}
				}
			}
		}
		var keep []string
		changed := false
		for i := range list.Node.Ops {
			op := &list.Node.Ops[i]
			if op.Kind != llvmir.MDRef || op.Ref == nil {
				keep = nil
				changed = false
				break // not a plain list: leave it
			}
			if liveExpr[op.Ref] {
				keep = append(keep, "!"+op.Ref.Name)
			} else {
				changed = true
			}
		}
		if !changed {
			continue
		}
		text := string(cu.Text)
		_, start, end, _ := fieldRef(text, "globals")
		if len(keep) == 0 {
			withGlobals[cu] = false
			// Drop the field and the separator next to it.
			if rest := text[end:]; strings.HasPrefix(rest, ", ") {
				end += 2
			} else if strings.HasSuffix(text[:start], ", ") {
				start -= 2
			}
			plan.ReplaceText(cu, text[:start]+text[end:])
			continue
		}
		n := plan.NewMD("!{" + strings.Join(keep, ", ") + "}")
		plan.ReplaceText(cu, text[:start]+"globals: !"+strconv.Itoa(n)+text[end:])
	}
}

// stripDeadUnits leaves out of !llvm.dbg.cu the compile units no function
// the module writes belongs to (through its DISubprogram's unit:) and
// that keep no globals: list, as SYCLStripDeadDebugInfo's aggressive mode
// does: a split module holds a subset of the functions, and the units of
// the others (or a unit reached only through another's imported entities)
// are dead. A unit still referenced from other metadata is written, just
// not listed.
func (p *Part) stripDeadUnits(plan *llvmir.Plan, withGlobals map[*llvmir.Entity]bool) {
	m := p.s.M
	nm := m.NamedMD("llvm.dbg.cu")
	if nm == nil || nm.Named == nil {
		return
	}
	live := map[*llvmir.Entity]bool{}
	for _, i := range p.written {
		e := m.Entities[i]
		if e.Func == nil {
			continue
		}
		for _, a := range e.Func.Attachments {
			if a.Kind != "dbg" || a.Node == nil || a.Node.Special != "DISubprogram" {
				continue
			}
			if n, _, _, ok := fieldRef(a.Node.Fields, "unit"); ok {
				if cu := m.MD(n); cu != nil {
					live[cu] = true
				}
			}
		}
	}
	var keep []string
	dead := false
	for _, op := range nm.Named.Ops {
		if op.Kind != llvmir.MDRef || op.Ref == nil {
			return // not a plain list: leave it
		}
		if live[op.Ref] || withGlobals[op.Ref] {
			keep = append(keep, "!"+op.Ref.Name)
		} else {
			dead = true
		}
	}
	if dead {
		plan.ReplaceText(nm, "!llvm.dbg.cu = !{"+strings.Join(keep, ", ")+"}\n")
	}
}
