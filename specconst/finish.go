package specconst

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/props"
)

// finish writes the recorded edits into the plan and fills the result.
func (l *lowering) finish(res *Result) error {
	if l.p == nil {
		return l.result(res)
	}
	// Rewritten bodies, and the globals they still reference.
	refs := map[string]bool{}
	rewritten := map[*llvmir.Entity]bool{}
	for _, fs := range l.funcs {
		globals, err := l.p.SetBody(fs.body)
		if err != nil {
			return err
		}
		rewritten[fs.e] = true
		for _, name := range globals {
			refs[name] = true
		}
	}

	// What the lowering left unused goes, as GlobalDCE and
	// StripDeadPrototypes would remove it: the intrinsic declarations, and
	// the symbolic-ID strings and specialization_id objects that are
	// discardable when unused.
	if len(l.funcs) > 0 {
		count := func(e *llvmir.Entity) {
			// Metadata counts whatever the plan keeps of it: a global it
			// names stays.
			if e.Kind.IsGlobalValue() && !l.kept(e) || rewritten[e] || (e.Func != nil && !l.defines(e)) {
				return
			}
			for _, g := range e.Globals {
				refs[g.Name] = true
			}
		}
		if l.o.Globals == nil {
			for _, e := range l.m.Entities {
				count(e)
			}
		} else {
			for _, e := range l.o.Globals {
				count(e)
			}
			for _, e := range l.m.OtherReferrers() {
				count(e)
			}
		}
		for _, e := range l.loweredList {
			if !refs[e.Name] {
				l.p.Drop(e)
			}
		}
		seen := map[*llvmir.Entity]bool{}
		for _, g := range l.candidates {
			if seen[g] || refs[g.Name] || g.Var == nil || !l.kept(g) {
				continue
			}
			seen[g] = true
			if g.Var.Linkage.DiscardableIfUnused() {
				l.p.Drop(g)
			}
		}
	}

	for _, d := range l.decls {
		l.p.Add(llvmir.KindFunction, d)
	}

	if err := l.result(res); err != nil {
		return err
	}
	l.metadata()
	return nil
}

// result fills the spec constants and default-value bytes of the result.
func (l *lowering) result(res *Result) error {
	for _, sym := range l.order {
		words := l.descs[sym]
		descs := make([]props.SpecConstDesc, 0, len(words)/3)
		for i := 0; i+2 < len(words); i += 3 {
			descs = append(descs, props.SpecConstDesc{ID: words[i], Offset: words[i+1], Size: words[i+2]})
		}
		res.SpecConsts = append(res.SpecConsts, props.SpecConst{SymID: sym, Descs: descs})
	}
	for _, d := range l.defaults {
		if err := l.appendDefaultBytes(&res.Defaults, d); err != nil {
			return err
		}
	}
	return nil
}

// metadata adds the two named metadata, with uniqued nodes as LLVM keeps
// them.
func (l *lowering) metadata() {
	nodeIDs := map[string]int{}
	node := func(text string) string {
		if id, ok := nodeIDs[text]; ok {
			return "!" + strconv.Itoa(id)
		}
		id := l.p.NewMD(text)
		nodeIDs[text] = id
		return "!" + strconv.Itoa(id)
	}
	var scOps []string
	for _, sym := range l.order {
		words := l.descs[sym]
		var b strings.Builder
		b.WriteString("!{!")
		b.WriteString(quoteMDString(sym))
		for _, w := range words {
			b.WriteString(", i32 ")
			b.WriteString(strconv.FormatInt(int64(int32(w)), 10))
		}
		b.WriteString("}")
		scOps = append(scOps, node(b.String()))
	}
	var defOps []string
	for _, d := range l.defaults {
		defOps = append(defOps, node("!{"+d.typed()+"}"))
	}
	l.namedMD(mdSpecConsts, scOps)
	l.namedMD(mdDefaults, defOps)
}

// namedMD appends ops to named metadata name, creating it (possibly empty)
// as getOrInsertNamedMetadata does.
func (l *lowering) namedMD(name string, ops []string) {
	if e := l.m.NamedMD(name); e != nil && l.kept(e) {
		if len(ops) == 0 {
			return
		}
		var all []string
		for _, op := range e.Named.Ops {
			if op.Kind == llvmir.MDRef && op.Ref != nil {
				all = append(all, "!"+op.Ref.Name)
			}
		}
		l.p.SetNamedMDOps(e, append(all, ops...))
		return
	}
	l.p.Add(llvmir.KindNamedMD, "!"+name+" = !{"+strings.Join(ops, ", ")+"}")
}

// quoteMDString writes s as the text of a metadata string "…" (LLVM
// escapes non-printable bytes, '"' and '\' as \XX).
func quoteMDString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c <= 0x7E && c != '"' && c != '\\' {
			b.WriteByte(c)
		} else {
			b.WriteString(`\`)
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)))
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c)&15, 16)))
		}
	}
	b.WriteByte('"')
	return b.String()
}
