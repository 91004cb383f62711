package llvmir

import (
	"slices"
	"strings"
)

// groupSwap is a function's attribute group replaced by one the plan adds.
type groupSwap struct {
	to     int     // the group written in the header
	groups []int32 // the groups the function then references
}

// groupFnAttrs puts the string attributes AddFnAttr added to a function
// into an attribute group, as LLVM prints a function's attributes: the
// function's group (#N) with them added, in LLVM's order. Where every
// function of the output naming #N gets the same ones and nothing else
// written names it, #N itself is rewritten (its number kept, as LLVM would
// number it); otherwise a copy is added as a new group that the headers
// name instead, shared by the functions of one group given the same ones.
// A header naming no group gets a group of the added attributes alone; one
// with inline attributes or several groups, or given a non-string
// attribute, keeps them inline. It runs once, before the plan is first
// written.
func (p *Plan) groupFnAttrs() {
	if p.grouped {
		return
	}
	p.grouped = true
	var fns []*Entity
	for e, ed := range p.edits {
		if e.Func != nil && len(ed.fnAttrs) > 0 {
			fns = append(fns, e)
		}
	}
	if len(fns) == 0 {
		return
	}
	slices.SortFunc(fns, func(a, b *Entity) int { return a.Index - b.Index })
	type swap struct {
		e      *Entity
		from   int
		merged Attrs
		key    string
	}
	var swaps []swap
	keys := map[int]string{} // the key every function of group N gets; "" when they differ
	for _, e := range fns {
		base, from, ok := p.groupBase(e.Func, p.edits[e].fnAttrs)
		if !ok {
			continue
		}
		merged := mergeStringAttrs(base, p.edits[e].fnAttrs)
		var key strings.Builder
		key.WriteString(itoa(from))
		for _, a := range merged {
			key.WriteString(" " + a.Text())
		}
		swaps = append(swaps, swap{e, from, merged, key.String()})
		if k, seen := keys[from]; !seen {
			keys[from] = key.String()
		} else if k != key.String() {
			keys[from] = ""
		}
	}
	swapped := make(map[*Entity]bool, len(swaps))
	for _, s := range swaps {
		swapped[s.e] = true
	}
	inPlace := p.groupsOnlyNamedBy(swapped, keys)
	made := map[string]int{}
	for _, s := range swaps {
		ed := p.edits[s.e]
		ed.fnAttrs = nil
		if inPlace[s.from] {
			if _, done := made[s.key]; !done {
				made[s.key] = s.from
				p.SetGroupAttrs(p.m.AttrGroup(s.from), s.merged)
			}
			continue
		}
		to, seen := made[s.key]
		if !seen {
			to = p.NewAttrGroup(s.merged)
			made[s.key] = to
		}
		ed.group = &groupSwap{to: to, groups: swappedGroups(s.e, s.from, to)}
	}
}

// groupsOnlyNamedBy returns the groups of keys (those with a key) that no
// global value the plan writes names but the headers of the swapped
// functions: a call site, a variable or another function naming one keeps
// it as it is.
func (p *Plan) groupsOnlyNamedBy(swapped map[*Entity]bool, keys map[int]string) map[int]bool {
	out := map[int]bool{}
	for n, k := range keys {
		if n >= 0 && k != "" {
			out[n] = true
		}
	}
	check := func(e *Entity) {
		if !e.Kind.IsGlobalValue() {
			return
		}
		for _, g := range e.groups {
			if out[int(g)] && (!swapped[e] || inBody(e, int(g))) {
				delete(out, int(g))
			}
		}
	}
	if p.sp != nil {
		for i, keep := range p.sp.keep {
			if keep {
				check(p.m.Entities[i])
			}
		}
	} else {
		for i, e := range p.m.Entities {
			if !p.drop[i] {
				check(e)
			}
		}
	}
	return out
}

// groupBase returns the attributes of the group function f names (none
// when it names none) and that group's number (-1 for none); false when
// the added attributes stay inline.
func (p *Plan) groupBase(f *Function, added []Attr) (Attrs, int, bool) {
	if len(f.FnAttrs) > 0 || len(f.AttrGroups) > 1 {
		return nil, 0, false
	}
	for _, a := range added {
		if !a.String {
			return nil, 0, false
		}
	}
	if len(f.AttrGroups) == 0 {
		return nil, -1, true
	}
	g := p.m.AttrGroup(f.AttrGroups[0])
	if g == nil || g.Group == nil {
		return nil, 0, false
	}
	if ed := p.edits[g]; ed != nil && ed.groupAttrs != nil {
		return ed.groupAttrs, f.AttrGroups[0], true
	}
	if ed := p.edits[g]; ed != nil && ed.text != nil {
		return nil, 0, false // replaced as text: its attributes are not known
	}
	return g.Group.Attrs, f.AttrGroups[0], true
}

// SetGroupAttrs replaces the attributes of attribute group e (KindAttrGroup)
// with attrs, written in LLVM's order of a set's attributes (see
// sortedAttrs). Functions whose attributes AddFnAttr then adds to it start
// from these.
func (p *Plan) SetGroupAttrs(e *Entity, attrs Attrs) {
	attrs = sortedAttrs(attrs)
	var b strings.Builder
	b.WriteString("attributes #" + itoa(e.ID) + " = {")
	for _, a := range attrs {
		b.WriteString(" " + a.Text())
	}
	b.WriteString(" }\n")
	ed := p.edit(e)
	ed.groupAttrs = attrs
	text := b.String()
	ed.text = &text
}

// sortedAttrs returns attrs in LLVM's order of a set's attributes as far
// as it matters here: the built-in ones first, as they are, then the
// string attributes by key.
func sortedAttrs(attrs Attrs) Attrs {
	out := make(Attrs, 0, len(attrs))
	var strs Attrs
	for _, a := range attrs {
		if a.String {
			strs = append(strs, a)
		} else {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(strs, func(a, b Attr) int { return strings.Compare(a.Key, b.Key) })
	return append(out, strs...)
}

// mergeStringAttrs returns base with the string attributes added (each
// unless base has its key), in LLVM's order.
func mergeStringAttrs(base Attrs, added []Attr) Attrs {
	out := slices.Clone(base)
	for _, a := range added {
		if !out.Has(a.Key) {
			out = append(out, a)
		}
	}
	return sortedAttrs(out)
}

// swappedGroups returns the groups function e references once its header
// names group to instead of from: from stays while a call in its body
// names it.
func swappedGroups(e *Entity, from, to int) []int32 {
	keep := inBody(e, from)
	var gs []int32
	for _, g := range e.groups {
		if int(g) != from || keep {
			gs = append(gs, g)
		}
	}
	return append(gs, int32(to))
}

// inBody reports whether a call in function e's body names group n.
func inBody(e *Entity, n int) bool {
	if e.Func == nil {
		return false
	}
	for i := range e.Func.Calls {
		if slices.Contains(e.Func.Calls[i].AttrGroups, n) {
			return true
		}
	}
	return false
}
