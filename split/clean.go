package split

import (
	"slices"

	"github.com/sycbuild/sycbuild/llvmir"
)

// What a part writes of each input entity (Part.st).
const (
	stNone  uint8 = iota // not written
	stDef                // written as it is (a definition)
	stDecl               // written as a declaration
	stAlias              // an alias or ifunc, written as it is
)

// ESIMDStatus is what an output module holds, as recorded in its
// sycl-esimd-split-status metadata.
type ESIMDStatus uint8

// The statuses.
const (
	SYCLOnly     ESIMDStatus = 0
	ESIMDOnly    ESIMDStatus = 1
	SYCLAndESIMD ESIMDStatus = 2
)

// Part is one output module before it is written: what of the input it
// writes and the edits cleanup made. Write it through Plan.
type Part struct {
	s *Splitter
	// Entries are the module's entry points in module order; they are its
	// symbol table.
	Entries []*llvmir.Entity
	Status  ESIMDStatus
	// HasVirtual is whether the group defines virtual functions.
	HasVirtual bool
	// Warnings are the "Undefined function … found in …" messages of the
	// extraction, in module order.
	Warnings []string

	marked     []*llvmir.Entity // get "sycl-entry-point"
	st         []uint8          // by entity index
	linkage    map[int32]llvmir.Linkage
	dropComdat map[int32]bool
	comdatSel  map[string]string // comdat name → new selection kind
	aliasDecl  map[int32]bool    // aliases written as declarations
	decls      []int32           // what is written as a declaration, in module order
	// written is every entity the part writes (st != stNone), in module
	// order: what the part costs to walk, and all Release has to clear.
	written []int32
}

// Written reports whether the part writes e (as a definition, declaration
// or alias).
func (p *Part) Written(e *llvmir.Entity) bool { return p.st[e.Index] != stNone }

// Globals returns the global values the part writes (as definitions,
// declarations or aliases), in module order. Walking them costs what the
// part holds, not what the input module holds.
func (p *Part) Globals() []*llvmir.Entity {
	ents := p.s.M.Entities
	out := make([]*llvmir.Entity, len(p.written))
	for k, i := range p.written {
		out[k] = ents[i]
	}
	return out
}

// Defines reports whether the part writes e as a definition.
func (p *Part) Defines(e *llvmir.Entity) bool {
	return p.st[e.Index] == stDef || p.st[e.Index] == stAlias
}

// Linkage returns e's linkage in the part.
func (p *Part) Linkage(e *llvmir.Entity) llvmir.Linkage {
	if l, ok := p.linkage[int32(e.Index)]; ok {
		return l
	}
	if p.st[e.Index] == stDecl && !isDecl(e) {
		return llvmir.External
	}
	return p.s.in.linkage(e)
}

// alwaysPreserved are names InternalizePass never internalizes.
var alwaysPreserved = map[string]bool{
	"llvm.used": true, "llvm.compiler.used": true, "llvm.global_ctors": true,
	"llvm.global_dtors": true, "llvm.global.annotations": true,
	"__stack_chk_fail": true, "__stack_chk_guard": true,
}

func comdatOf(e *llvmir.Entity) string {
	switch {
	case e.Func != nil:
		return e.Func.Comdat
	case e.Var != nil:
		return e.Var.Comdat
	}
	return ""
}

// cleanOptions say what clean makes of a selection.
type cleanOptions struct {
	// base, when set, is the part the selection was taken from (an ESIMD
	// or SYCL half of it): only its definitions count as definitions, and
	// its edits carry over.
	base *Part
	// entries are the part's entry points; marked those that get
	// "sycl-entry-point".
	entries, marked []*llvmir.Entity
	// hasVirtual says the group defines virtual functions.
	hasVirtual bool
	// warn asks for the undefined-function warnings of a split.
	warn bool
	// whole says the selection is the whole module (external aliases are
	// then kept like any other non-discardable global).
	whole  bool
	status ESIMDStatus
}

// clean turns a selection of definitions into a part the way
// ModuleDesc::cleanup does (see the package documentation): virtual
// functions, "sycl-entry-point", internalization, dead globals and unused
// declarations.
func (s *Splitter) clean(sel []int32, o cleanOptions) *Part {
	p := &Part{s: s, Entries: o.entries, Status: o.status, HasVirtual: o.hasVirtual,
		st: s.newState(), linkage: map[int32]llvmir.Linkage{}}
	if !s.cfg.AllowDeps {
		p.marked = o.marked
	}
	if o.base != nil {
		p.inherit(o.base)
	}
	defs := s.define(p, sel, o.base)
	s.placeVirtuals(p, defs)
	s.internalize(p, defs)
	s.globalDCE(p, defs, o.whole)
	if o.warn {
		s.warnUndefined(p)
	}
	return p
}

// define marks the definitions of the selection (those base defines, when
// set) as written by p, and returns them.
func (s *Splitter) define(p *Part, sel []int32, base *Part) []int32 {
	ents := s.M.Entities
	defs := make([]int32, 0, len(sel))
	for _, i := range sel {
		e := ents[i]
		if base != nil && base.st[i] != stDef {
			continue
		}
		if (e.Func != nil || e.Var != nil) && !isDecl(e) && p.st[i] == stNone {
			p.st[i] = stDef
			defs = append(defs, i)
		}
	}
	return defs
}

// placeVirtuals gives virtual functions to the parts that define their set
// (made external there); the others only declare them.
func (s *Splitter) placeVirtuals(p *Part, defs []int32) {
	in, ents := s.in, s.M.Entities
	for _, i := range defs {
		e := ents[i]
		if e.Func == nil || !in.hasAttr(e, attrIndirectlyCallable) {
			continue
		}
		if !p.HasVirtual {
			p.st[i] = stNone
		} else if in.linkage(e) != llvmir.External {
			p.linkage[i] = llvmir.External
		}
	}
}

// warnUndefined records the split's "Undefined function" warnings: one per
// function p only declares, intrinsics and builtins aside.
func (s *Splitter) warnUndefined(p *Part) {
	for _, i := range p.decls {
		if e := s.M.Entities[i]; e.Func != nil && !isIntrinsicOrBuiltin(e.Name) {
			p.Warnings = append(p.Warnings, "Undefined function "+e.Name+" found in "+s.cfg.ModuleName+". This may result in runtime errors.")
		}
	}
}

// inherit copies the edits of base (linkages, comdats) into p.
func (p *Part) inherit(base *Part) {
	for i, l := range base.linkage {
		p.linkage[i] = l
	}
	for i := range base.dropComdat {
		if p.dropComdat == nil {
			p.dropComdat = map[int32]bool{}
		}
		p.dropComdat[i] = true
	}
	for c, v := range base.comdatSel {
		if p.comdatSel == nil {
			p.comdatSel = map[string]string{}
		}
		p.comdatSel[c] = v
	}
}

// internalize is InternalizePass with sycl-post-link's "must preserve"
// rule: entry points, virtual functions and "referenced-indirectly"
// functions keep their linkage (with AllowDeps: kernels and importable
// functions), as do all non-function globals; every other function
// definition becomes internal. A comdat that holds a preserved global keeps
// all its members; otherwise a one-member comdat is dropped and a larger
// one becomes "nodeduplicate".
func (s *Splitter) internalize(p *Part, defs []int32) {
	in, ents := s.in, s.M.Entities
	isMarked := make(map[*llvmir.Entity]bool, len(p.marked))
	for _, e := range p.marked {
		isMarked[e] = true
	}
	lnk := func(i int32) llvmir.Linkage {
		if l, ok := p.linkage[i]; ok {
			return l
		}
		return in.linkage(ents[i])
	}
	preserve := func(i int32) bool {
		e := ents[i]
		h := header(e)
		l := lnk(i)
		switch {
		case l == llvmir.AvailableExternally, h.DLLStorage == "dllexport":
			return true
		case e.Var != nil && e.Var.ExternallyInitialized:
			return true
		case l.IsLocal():
			return false
		case alwaysPreserved[e.Name]:
			return true
		case e.Func == nil:
			return true
		case s.cfg.AllowDeps:
			return in.isKernel(e) || in.canBeImported(e, true)
		}
		return isMarked[e] || in.hasAttr(e, attrIndirectlyCallable) || in.hasAttr(e, attrReferencedIndirectly)
	}
	type comdatInfo struct {
		size     int
		external bool
	}
	comdats := map[string]*comdatInfo{}
	for _, i := range defs {
		if p.st[i] != stDef {
			continue
		}
		if c := comdatOf(ents[i]); c != "" {
			ci := comdats[c]
			if ci == nil {
				ci = &comdatInfo{}
				comdats[c] = ci
			}
			ci.size++
			if preserve(i) {
				ci.external = true
			}
		}
	}
	for _, i := range defs {
		if p.st[i] != stDef {
			continue
		}
		e := ents[i]
		if c := comdatOf(e); c != "" {
			ci := comdats[c]
			if ci.external {
				continue
			}
			if ci.size == 1 {
				if p.dropComdat == nil {
					p.dropComdat = map[int32]bool{}
				}
				p.dropComdat[i] = true
			} else {
				if p.comdatSel == nil {
					p.comdatSel = map[string]string{}
				}
				p.comdatSel[c] = "nodeduplicate"
			}
			if lnk(i).IsLocal() {
				continue
			}
		} else if lnk(i).IsLocal() || preserve(i) {
			continue
		}
		p.linkage[i] = llvmir.Internal
	}
}

// globalDCE keeps what is reachable from the part's non-discardable
// definitions (and, for a whole module, its non-discardable aliases):
// referenced definitions stay, referenced functions and variables that are
// not defined become declarations, a live member of a comdat keeps the
// others alive, and everything else goes (dead globals and unused
// declarations alike).
func (s *Splitter) globalDCE(p *Part, defs []int32, whole bool) {
	in, ents := s.in, s.M.Entities
	live := s.marks.get()
	defer s.marks.put(live)
	decl := s.marks.get()
	defer s.marks.put(decl)
	var queue, decls []int32
	mark := func(i int32) {
		if live.has(i) {
			return
		}
		live.add(i)
		queue = append(queue, i)
		e := ents[i]
		if c := comdatOf(e); c != "" && !p.dropComdat[i] {
			// The other members keep the comdat alive in turn, which
			// marks no one else: they are all in this list.
			for _, j := range s.md.comdatMembers[c] {
				if p.st[j] == stDef && !p.dropComdat[j] && !live.has(j) {
					live.add(j)
					queue = append(queue, j)
				}
			}
		}
	}
	for _, i := range defs {
		if p.st[i] == stDef && !discardable(p.Linkage(ents[i])) {
			mark(i)
		}
	}
	// Entry points stay even when internalized (with AllowDeps a function
	// that cannot be imported is), so that the module holds every name its
	// symbol table lists; the reference would delete such a function and
	// still list it.
	for _, e := range p.Entries {
		if p.st[e.Index] == stDef {
			mark(int32(e.Index))
		}
	}
	if whole {
		for _, e := range ents {
			if e.Alias != nil && !in.removed[e] && !discardable(e.Alias.Linkage) {
				mark(int32(e.Index))
			}
		}
	}
	for k := 0; k < len(queue); k++ {
		for _, t := range in.refs(ents[queue[k]]) {
			ti := int32(t.Index)
			switch {
			case in.removed[t]:
			case t.Alias != nil || p.st[ti] == stDef:
				mark(ti)
			case (t.Func != nil || t.Var != nil) && !decl.has(ti):
				decl.add(ti)
				decls = append(decls, ti)
			}
		}
	}
	// Only what was selected, reached or referenced changes state.
	for _, i := range defs {
		if !live.has(i) {
			p.st[i] = stNone
		}
	}
	// aliasOK says whether an alias written here ends, through the
	// aliases it points to, at a definition written here.
	aliasOK := map[int32]bool{}
	endsAtDef := func(i int32) bool {
		var path []int32
		ok := false
		for {
			if v, known := aliasOK[i]; known {
				ok = v
				break
			}
			pt := ents[i].Alias.Points
			if pt == nil || !live.has(int32(pt.Index)) {
				break
			}
			if pt.Alias == nil {
				ok = p.st[pt.Index] == stDef
				break
			}
			aliasOK[i] = false // a cycle ends here
			path = append(path, i)
			i = int32(pt.Index)
		}
		aliasOK[i] = ok
		for _, j := range path {
			aliasOK[j] = ok
		}
		return ok
	}
	for _, i := range queue {
		e := ents[i]
		if e.Alias == nil {
			p.st[i] = stDef
			continue
		}
		p.st[i] = stAlias
		if !endsAtDef(i) {
			// An alias must point to a definition; like CloneModule,
			// write one that cannot as a declaration of its name.
			if p.aliasDecl == nil {
				p.aliasDecl = map[int32]bool{}
			}
			p.aliasDecl[i] = true
		}
	}
	slices.Sort(decls)
	p.written = append(make([]int32, 0, len(queue)+len(decls)), queue...)
	for _, i := range decls {
		if !live.has(i) {
			p.st[i] = stDecl
			p.decls = append(p.decls, i)
			p.written = append(p.written, i)
		}
	}
	slices.Sort(p.written)
}
