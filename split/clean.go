package split

import (
	"slices"
	"strings"

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

	marked []*llvmir.Entity // get "sycl-entry-point"
	mem    *state           // where st, ed and the lists below live (nil once released)
	st     []uint8          // by entity index: what is written
	ed     []uint8          // by entity index: cleanup's edits (ed… bits)
	// edited are the entities with edits (ed != 0), in no order: all
	// Release has to clear of ed.
	edited []int32
	// comdatSel are the comdats (by number) whose selection kind becomes
	// "nodeduplicate", each once.
	comdatSel []int32
	decls     []int32 // what is written as a declaration, in module order
	// written is every entity the part writes (st != stNone), in module
	// order: what the part costs to walk, and all Release has to clear of st.
	written []int32
}

// The edits cleanup makes to an entity (Part.ed).
const (
	edExternal   uint8 = 1 << iota // linkage made external
	edInternal                     // linkage made internal
	edDropComdat                   // the definition's one-member comdat goes
	edAliasDecl                    // an alias written as a declaration
)

// edit adds the edits of bits to entity i.
func (p *Part) edit(i int32, bits uint8) {
	if p.ed[i] == 0 {
		p.edited = append(p.edited, i)
	}
	p.ed[i] |= bits
}

// relink sets entity i's linkage to l, External or Internal.
func (p *Part) relink(i int32, l llvmir.Linkage) {
	bit := edInternal
	if l == llvmir.External {
		bit = edExternal
	}
	p.edit(i, bit)
	p.ed[i] &^= (edExternal | edInternal) &^ bit
}

// editedLinkage returns the linkage cleanup gave entity i, if it did.
func (p *Part) editedLinkage(i int32) (llvmir.Linkage, bool) {
	switch {
	case p.ed[i]&edExternal != 0:
		return llvmir.External, true
	case p.ed[i]&edInternal != 0:
		return llvmir.Internal, true
	}
	return "", false
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
	if l, ok := p.editedLinkage(int32(e.Index)); ok {
		return l
	}
	if p.st[e.Index] == stDecl && !isDecl(e) {
		return llvmir.External
	}
	return p.s.in.linkage(e)
}

// linkageAt is Linkage by entity index.
func (p *Part) linkageAt(i int32) llvmir.Linkage {
	if l, ok := p.editedLinkage(i); ok {
		return l
	}
	if p.st[i] == stDecl && p.s.in.flags[i]&flDecl == 0 {
		return llvmir.External
	}
	return p.s.in.linkageAt(i)
}

// alwaysPreserved are names InternalizePass never internalizes.
var alwaysPreserved = map[string]bool{
	"llvm.used": true, "llvm.compiler.used": true, "llvm.global_ctors": true,
	"llvm.global_dtors": true, "llvm.global.annotations": true,
	"__stack_chk_fail": true, "__stack_chk_guard": true,
}

// isAlwaysPreserved reports whether InternalizePass never internalizes
// name (without hashing the many names that cannot be).
func isAlwaysPreserved(name string) bool {
	return (strings.HasPrefix(name, "llvm.") || strings.HasPrefix(name, "__stack_chk_")) && alwaysPreserved[name]
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
	p := &Part{s: s, Entries: o.entries, Status: o.status, HasVirtual: o.hasVirtual}
	s.takeState(p)
	if !s.cfg.AllowDeps {
		p.marked = o.marked
	}
	if o.base != nil {
		p.inherit(o.base)
	}
	buf := s.bufs.get()
	defs := s.define(p, sel, o.base, *buf)
	s.placeVirtuals(p, defs)
	s.internalize(p, defs)
	s.globalDCE(p, defs, o.whole)
	*buf = defs
	s.bufs.put(buf)
	if o.warn {
		s.warnUndefined(p)
	}
	return p
}

// define marks the definitions of the selection (those base defines, when
// set) as written by p, and returns them, appended to defs[:0].
func (s *Splitter) define(p *Part, sel []int32, base *Part, defs []int32) []int32 {
	flags := s.in.flags
	defs = defs[:0]
	for _, i := range sel {
		if base != nil && base.st[i] != stDef {
			continue
		}
		if f := flags[i]; f&(flFunction|flVariable) != 0 && f&flDecl == 0 && p.st[i] == stNone {
			p.st[i] = stDef
			defs = append(defs, i)
		}
	}
	return defs
}

// placeVirtuals gives virtual functions to the parts that define their set
// (made external there); the others only declare them.
func (s *Splitter) placeVirtuals(p *Part, defs []int32) {
	in := s.in
	for _, i := range defs {
		// Only functions have attribute bits.
		if !in.hasAttrAt(i, akIndirectlyCallable) {
			continue
		}
		if !p.HasVirtual {
			p.st[i] = stNone
		} else if in.linkageAt(i) != llvmir.External {
			p.relink(i, llvmir.External)
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
	for _, i := range base.edited {
		if bits := base.ed[i] &^ edAliasDecl; bits != 0 {
			p.edit(i, bits)
		}
	}
	p.comdatSel = append(p.comdatSel, base.comdatSel...)
}

// internalize is InternalizePass with sycl-post-link's "must preserve"
// rule: entry points, virtual functions and "referenced-indirectly"
// functions keep their linkage (with AllowDeps: kernels and importable
// functions), as do all non-function globals; every other function
// definition becomes internal. A comdat that holds a preserved global keeps
// all its members; otherwise a one-member comdat is dropped and a larger
// one becomes "nodeduplicate".
func (s *Splitter) internalize(p *Part, defs []int32) {
	isMarked := s.marks.get()
	defer s.marks.put(isMarked)
	for _, e := range p.marked {
		isMarked.add(int32(e.Index))
	}
	comdats := s.comdats.get()
	defer s.comdats.put(comdats)
	z := internalizer{s: s, p: p, isMarked: isMarked, comdats: comdats}
	z.countComdats(defs)
	inherited := len(p.comdatSel)
	z.relinkDefs(defs)
	if inherited > 0 && len(p.comdatSel) > inherited {
		// Base's comdats may have been changed again here.
		slices.Sort(p.comdatSel)
		p.comdatSel = slices.Compact(p.comdatSel)
	}
}

// What internalize counts of each comdat's definitions here: their count
// (times cmMember), and whether one is preserved (cmExternal) and the
// comdat's selection kind was changed (cmNoDup).
const (
	cmExternal = 1 << iota
	cmNoDup
	cmMember
)

// internalizer is the state of one internalize: the part's marked entry
// points and the counts of its comdats.
type internalizer struct {
	s        *Splitter
	p        *Part
	isMarked *marks
	comdats  *tally
}

// linkage returns entity i's linkage in the part, edits included.
func (z *internalizer) linkage(i int32) llvmir.Linkage {
	if l, ok := z.p.editedLinkage(i); ok {
		return l
	}
	return z.s.in.linkageAt(i)
}

// preserve reports whether definition i keeps its linkage. It asks the
// arrays of info, not the entities, but for AllowDeps.
func (z *internalizer) preserve(i int32) bool {
	in := z.s.in
	l, f := z.linkage(i), in.flags[i]
	switch {
	case l == llvmir.AvailableExternally, f&flPinned != 0:
		return true
	case l.IsLocal():
		return false
	case f&flAlwaysPreserved != 0:
		return true
	case f&flFunction == 0:
		return true
	case z.s.cfg.AllowDeps:
		e := z.s.M.Entities[i]
		return in.isKernel(e) || in.canBeImported(e, true)
	}
	return z.isMarked.has(i) || in.hasAttrAt(i, akIndirectlyCallable) || in.hasAttrAt(i, akReferencedIndirectly)
}

// countComdats counts the members of each comdat among the definitions
// and notes the comdats that hold a preserved one.
func (z *internalizer) countComdats(defs []int32) {
	p, comdat, comdats := z.p, z.s.md.comdat, z.comdats
	for _, i := range defs {
		if p.st[i] != stDef {
			continue
		}
		if c := comdat[i]; c != 0 {
			v := comdats.get(c) + cmMember
			if v&cmExternal == 0 && z.preserve(i) {
				v |= cmExternal
			}
			comdats.set(c, v)
		}
	}
}

// relinkDefs makes internal the definitions not preserved, dropping the
// comdat of a lone member and making a larger unpreserved comdat
// "nodeduplicate".
func (z *internalizer) relinkDefs(defs []int32) {
	p, comdat, comdats := z.p, z.s.md.comdat, z.comdats
	for _, i := range defs {
		if p.st[i] != stDef {
			continue
		}
		if c := comdat[i]; c != 0 {
			v := comdats.get(c)
			if v&cmExternal != 0 {
				continue
			}
			if v/cmMember == 1 {
				p.edit(i, edDropComdat)
			} else if v&cmNoDup == 0 {
				comdats.set(c, v|cmNoDup)
				p.comdatSel = append(p.comdatSel, c)
			}
			if z.linkage(i).IsLocal() {
				continue
			}
		} else if z.linkage(i).IsLocal() || z.preserve(i) {
			continue
		}
		p.relink(i, llvmir.Internal)
	}
}

// globalDCE keeps what is reachable from the part's non-discardable
// definitions (and, for a whole module, its non-discardable aliases):
// referenced definitions stay, referenced functions and variables that are
// not defined become declarations, a live member of a comdat keeps the
// others alive, and everything else goes (dead globals and unused
// declarations alike).
func (s *Splitter) globalDCE(p *Part, defs []int32, whole bool) {
	d := dce{s: s, p: p, ents: s.M.Entities, live: s.marks.get(), decl: s.marks.get()}
	defer s.marks.put(d.live)
	defer s.marks.put(d.decl)
	queueBuf, declsBuf := s.bufs.get(), s.bufs.get()
	d.queue, d.decls = *queueBuf, *declsBuf
	defer func() {
		*queueBuf, *declsBuf = d.queue, d.decls
		s.bufs.put(queueBuf)
		s.bufs.put(declsBuf)
	}()
	d.markRoots(defs, whole)
	d.propagate()
	// Only what was selected, reached or referenced changes state.
	for _, i := range defs {
		if !d.live.has(i) {
			p.st[i] = stNone
		}
	}
	d.record()
}

// dce is the state of one globalDCE: the live entities (in the order
// reached) and the referenced ones that are not defined here.
type dce struct {
	s          *Splitter
	p          *Part
	ents       []*llvmir.Entity
	live, decl *marks
	queue      []int32
	decls      []int32
	// aliasOK says whether an alias written here ends, through the
	// aliases it points to, at a definition written here.
	aliasOK map[int32]bool
}

// mark makes entity i live, with the other members of its comdat.
func (d *dce) mark(i int32) {
	p, live := d.p, d.live
	if live.has(i) {
		return
	}
	live.add(i)
	d.queue = append(d.queue, i)
	if c := d.s.md.comdat[i]; c != 0 && p.ed[i]&edDropComdat == 0 {
		// The other members keep the comdat alive in turn, which
		// marks no one else: they are all in this list.
		for _, j := range d.s.md.comdatMembers[c] {
			if p.st[j] == stDef && p.ed[j]&edDropComdat == 0 && !live.has(j) {
				live.add(j)
				d.queue = append(d.queue, j)
			}
		}
	}
}

// markRoots marks the non-discardable definitions, the entry points and,
// for a whole module, the non-discardable aliases.
func (d *dce) markRoots(defs []int32, whole bool) {
	p, in := d.p, d.s.in
	for _, i := range defs {
		if p.st[i] == stDef && !p.linkageAt(i).DiscardableIfUnused() {
			d.mark(i)
		}
	}
	// Entry points stay even when internalized (with AllowDeps a function
	// that cannot be imported is), so that the module holds every name its
	// symbol table lists; the reference would delete such a function and
	// still list it.
	for _, e := range p.Entries {
		if p.st[e.Index] == stDef {
			d.mark(int32(e.Index))
		}
	}
	if whole {
		for _, e := range d.ents {
			if e.Alias != nil && !in.isRemoved(e) && !e.Alias.Linkage.DiscardableIfUnused() {
				d.mark(int32(e.Index))
			}
		}
	}
}

// propagate marks what the live entities reference: definitions and
// aliases become live, other functions and variables declarations.
func (d *dce) propagate() {
	p, in := d.p, d.s.in
	for k := 0; k < len(d.queue); k++ {
		for _, t := range in.refs(d.ents[d.queue[k]]) {
			ti := int32(t.Index)
			switch {
			case in.isRemoved(t):
			case t.Alias != nil || p.st[ti] == stDef:
				d.mark(ti)
			case (t.Func != nil || t.Var != nil) && !d.decl.has(ti):
				d.decl.add(ti)
				d.decls = append(d.decls, ti)
			}
		}
	}
}

// endsAtDef reports whether alias i ends, through the aliases it points
// to, at a definition written here.
func (d *dce) endsAtDef(i int32) bool {
	if d.aliasOK == nil {
		d.aliasOK = map[int32]bool{}
	}
	aliasOK := d.aliasOK
	var path []int32
	ok := false
	for {
		if v, known := aliasOK[i]; known {
			ok = v
			break
		}
		pt := d.ents[i].Alias.Points
		if pt == nil || !d.live.has(int32(pt.Index)) {
			break
		}
		if pt.Alias == nil {
			ok = d.p.st[pt.Index] == stDef
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

// record sets the part's state of every live and declared entity and its
// lists of written entities and declarations.
func (d *dce) record() {
	p := d.p
	for _, i := range d.queue {
		e := d.ents[i]
		if e.Alias == nil {
			p.st[i] = stDef
			continue
		}
		p.st[i] = stAlias
		if !d.endsAtDef(i) {
			// An alias must point to a definition; like CloneModule,
			// write one that cannot as a declaration of its name.
			p.edit(i, edAliasDecl)
		}
	}
	slices.Sort(d.decls)
	p.written = append(p.written[:0], d.queue...)
	for _, i := range d.decls {
		if !d.live.has(i) {
			p.st[i] = stDecl
			p.decls = append(p.decls, i)
			p.written = append(p.written, i)
		}
	}
	slices.Sort(p.written)
}
