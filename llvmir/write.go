package llvmir

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// outEntity is one entity of the output that is not written as it is in
// the module: a module entity with edits, a global value, a metadata node,
// a comdat or an attribute group the output picked, or an added entity.
type outEntity struct {
	e      *Entity // the module's entity; nil for an added one
	text   []byte  // the text to write (Lead not included)
	rest   []byte  // written right after text: the unedited end of a header-edited entity
	kind   Kind
	comdat string    // the comdat of a reparsed global value (with rp set)
	rp     *reparsed // what re-rendered or added text references; nil: as e
}

// reparsed is what the writer learns by parsing an edited or added
// entity's text again.
type reparsed struct {
	name     string // global value name of an added entity
	numbered bool
	id       int      // MD id of a node, group id
	globals  [][]byte // @-reference tokens (without '@')
	mds      []int
	groups   []int32
}

type splice struct {
	start, end int
	text       string
}

// WriteOptions change how a plan is written.
type WriteOptions struct {
	// StripComments leaves out the comment lines (first non-blank
	// character ';'; see strip.go) of the text written.
	StripComments bool
	// GlobalsFirst writes the global variables, aliases and ifuncs before
	// the functions, as LLVM's printer does (see globalsFirst).
	GlobalsFirst bool
	// GroupsLast writes the attribute groups after the functions, as
	// LLVM's printer does (see groupsLast).
	GroupsLast bool
}

// writer is the state of one Plan.Write. Writing is a few steps over it:
// collect the module entities written (rendering their edits) and the
// added ones, check every reference and find the metadata they reach,
// keep the comdats and attribute groups in use, renumber unnamed globals,
// and stream.
type writer struct {
	p *Plan
	m *Module
	// outs are the module entities written with an outEntity; first those
	// chosen before metadata, comdats and attribute groups were added for
	// what they reach, in module order.
	outs  outTable
	first []*outEntity
	// shared are, for a sparse plan, the module-level entities written as
	// they are in the module, in module order: they need no outEntity.
	shared []int32
	added  []*outEntity
	// addedNames and addedMD are the global values and numbered metadata
	// the added entities define.
	addedNames map[string]bool
	addedMD    map[int]bool
	// reach marks, for a full plan, the metadata nodes written entities
	// reach (by entity index); work are nodes reached but not yet checked.
	// A sparse plan's outs hold only reached nodes.
	reach []bool
	work  []*Entity
	slab  []outEntity // where outEntities are allocated, a chunk at a time

	// Kept from one sparse plan's write to the next (writers): the first
	// slab, and the storage of outs, first, shared and ordered's lists.
	slab0 []outEntity
	idx   []int32
	order []item
}

// writers keeps writers between writes: a split writes thousands of
// sparse plans of about the same size, and each would otherwise allocate
// its table, slab and lists anew (a sixth of what a split allocates).
var writers = sync.Pool{New: func() any { return new(writer) }}

// newWriter returns a writer for plan p, with the storage of an earlier
// one when there is one.
func newWriter(p *Plan) *writer {
	wr := writers.Get().(*writer)
	wr.p, wr.m = p, p.m
	return wr
}

// free gives wr back for another write, holding nothing of this one.
func (wr *writer) free() {
	if wr.outs.dense != nil {
		// A full plan's storage is the module's size: not kept.
		*wr = writer{}
		writers.Put(wr)
		return
	}
	wr.outs.sparse.clear()
	clear(wr.slab0[:cap(wr.slab0)])
	clear(wr.first[:cap(wr.first)])
	clear(wr.order[:cap(wr.order)])
	*wr = writer{
		outs:   outTable{sparse: wr.outs.sparse},
		first:  wr.first[:0],
		shared: wr.shared[:0],
		slab0:  wr.slab0[:0],
		idx:    wr.idx[:0],
		order:  wr.order[:0],
	}
	writers.Put(wr)
}

// write is Plan.Write, Plan.Append and Plan.Gather: the module is rendered
// into dst, which is handed to w (when set) every 256 KiB; with g set,
// long pieces of source text are not copied into dst but recorded in g.
func (p *Plan) write(dst []byte, w io.Writer, g *Gathered, o WriteOptions) ([]byte, error) {
	p.groupFnAttrs()
	wr := newWriter(p)
	defer wr.free()
	if err := wr.collect(); err != nil {
		return dst, err
	}
	if err := wr.collectAdded(); err != nil {
		return dst, err
	}
	if err := wr.checkReferences(); err != nil {
		return dst, err
	}
	if err := wr.keepUsedComdats(); err != nil {
		return dst, err
	}
	if err := wr.keepUsedGroups(); err != nil {
		return dst, err
	}
	order := wr.ordered()
	if o.GlobalsFirst {
		order = globalsFirst(order)
	}
	if o.GroupsLast {
		order = groupsLast(order)
	}
	s := &streamer{buf: dst, w: w, g: g, renum: renumberGlobals(order), strip: o.StripComments}
	if s.strip {
		s.comments = p.m.commentLines()
	}
	wr.stream(s, order)
	return s.finish()
}

func (wr *writer) fail(format string, args ...any) error {
	return fmt.Errorf("%s: writing module: %s", wr.m.File, fmt.Sprintf(format, args...))
}

// alloc returns a new zero outEntity.
func (wr *writer) alloc() *outEntity {
	if len(wr.slab) == cap(wr.slab) {
		wr.slab = make([]outEntity, 0, 16)
	}
	wr.slab = wr.slab[:len(wr.slab)+1]
	return &wr.slab[len(wr.slab)-1]
}

// newOut renders an entity's edits; nil means it is left out.
func (wr *writer) newOut(e *Entity) (*outEntity, error) {
	o := wr.alloc()
	o.e, o.text, o.kind = e, e.Text, e.Kind
	ed := wr.p.edits[e]
	if ed == nil {
		return o, nil
	}
	if ed.linkageOnly() {
		// Most plans of a split change the linkage of the same entities
		// the same way (the helpers they internalize): the first render
		// of such an edit is kept in the module and used again.
		r := wr.m.relinkedOf(e)
		if r.state.Load() == relinkedSet && r.linkage == ed.linkage {
			o.text, o.rest = r.text, r.rest
			return o, nil
		}
		text, rest, err := wr.p.render(e, ed)
		if err != nil {
			return nil, wr.fail("%v", err)
		}
		text = text[:len(text):len(text)]
		if r.state.CompareAndSwap(relinkedNone, relinkedSetting) {
			r.linkage, r.text, r.rest = ed.linkage, text, rest
			r.state.Store(relinkedSet)
		}
		o.text, o.rest = text, rest
		return o, nil
	}
	text, rest, err := wr.p.render(e, ed)
	if err != nil {
		return nil, wr.fail("%v", err)
	}
	if text == nil && rest == nil {
		return nil, nil // named metadata left without operands
	}
	if ed.headerOnly() {
		// Linkage and attribute keywords add no reference: what the
		// entity references is what it did, and its body is written from
		// the source as it is.
		o.text, o.rest = text, rest
		return o, nil
	}
	if err := wr.p.reparse(o, append(text, rest...)); err != nil {
		return nil, wr.fail("@%s after edits: %v", e.Name, err)
	}
	return o, nil
}

// relinked is the first render of a linkage-only edit of an entity: text
// followed by rest. Plans share it, so neither is written to. The module
// keeps one per entity, in entity order (the entities a plan writes are
// mostly close together), set once.
type relinked struct {
	state      atomic.Uint32 // relinkedNone, relinkedSetting, relinkedSet
	linkage    Linkage
	text, rest []byte
}

const (
	relinkedNone = iota
	relinkedSetting
	relinkedSet
)

// relinkedOf returns what the module keeps of e's linkage-only renders.
func (m *Module) relinkedOf(e *Entity) *relinked {
	m.relinkedOnce.Do(func() { m.relinked = make([]relinked, len(m.Entities)) })
	return &m.relinked[e.Index]
}

// collect chooses the module entities written: for a full plan every kept
// one (unused numbered metadata, comdats and attribute groups are pruned
// later); for a sparse plan the kept global values and the kept
// module-level entities, those without edits shared (reachable metadata,
// used comdats and used attribute groups are added later).
func (wr *writer) collect() error {
	m, p := wr.m, wr.p
	if p.sp == nil {
		wr.outs.dense = make([]*outEntity, len(m.Entities))
		wr.reach = make([]bool, len(m.Entities))
		for i, e := range m.Entities {
			if !p.drop[i] {
				if err := wr.choose(int32(i), e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	sp := p.sp
	gvs := sp.keptGlobals()
	fixed := sp.ix.fixed
	wr.outs.sparse.reset(len(gvs) + len(gvs)/2 + 8)
	// Room for the global values, the added entities and a few edited
	// module-level ones; metadata, comdats and groups take more chunks.
	if n := len(gvs) + len(p.added) + 8; cap(wr.slab0) < n {
		wr.slab0 = make([]outEntity, 0, n+n/4)
	}
	wr.slab = wr.slab0
	wr.first = slices.Grow(wr.first, len(gvs)+4)
	wr.shared = slices.Grow(wr.shared, len(fixed))
	// Merge the two sorted lists, leaving out dropped fixed entities.
	for len(fixed) > 0 || len(gvs) > 0 {
		if len(gvs) == 0 || len(fixed) > 0 && fixed[0] < gvs[0] {
			i := fixed[0]
			fixed = fixed[1:]
			if k, ok := sp.keep[i]; ok && !k {
				continue
			}
			e := m.Entities[i]
			if p.edits[e] == nil {
				wr.shared = append(wr.shared, i)
				continue
			}
			if err := wr.choose(i, e); err != nil {
				return err
			}
			continue
		}
		if err := wr.choose(gvs[0], m.Entities[gvs[0]]); err != nil {
			return err
		}
		gvs = gvs[1:]
	}
	return nil
}

// choose writes module entity e (index i), unless its edits leave it out.
func (wr *writer) choose(i int32, e *Entity) error {
	o, err := wr.newOut(e)
	if err != nil || o == nil {
		return err
	}
	wr.outs.set(i, o)
	wr.first = append(wr.first, o)
	return nil
}

// collectAdded parses the added entities.
func (wr *writer) collectAdded() error {
	if len(wr.p.added) == 0 {
		return nil
	}
	wr.added = make([]*outEntity, 0, len(wr.p.added))
	wr.addedNames = map[string]bool{}
	wr.addedMD = map[int]bool{}
	for _, a := range wr.p.added {
		o := wr.alloc()
		if t := wr.m.parsedAdded(a.text); t != nil {
			*o = *t
		} else {
			if err := wr.p.reparse(o, []byte(a.text)); err != nil {
				return wr.fail("added entity: %v", err)
			}
			wr.m.keepParsedAdded(a.text, o)
		}
		switch {
		case o.rp.numbered && o.kind.IsGlobalValue():
			return wr.fail("added entity %q defines an unnamed global; give it a name", firstLine(a.text))
		case o.kind.IsGlobalValue():
			wr.addedNames[o.rp.name] = true
		case o.kind == KindMDNode:
			wr.addedMD[o.rp.id] = true
		}
		wr.added = append(wr.added, o)
	}
	return nil
}

// Most plans of a split add the same few entities (the split status
// metadata): the parse of a short added text is kept in the module, for
// the plans after (up to maxParsedAdded texts).
const (
	maxParsedAddedLen = 256
	maxParsedAdded    = 1024
)

// parsedAdded returns the kept parse of added text, or nil.
func (m *Module) parsedAdded(text string) *outEntity {
	if len(text) > maxParsedAddedLen {
		return nil
	}
	if o, ok := m.addedParses.Load(text); ok {
		return o.(*outEntity)
	}
	return nil
}

// keepParsedAdded keeps the parse o of added text (read-only from then
// on: plans share it).
func (m *Module) keepParsedAdded(text string, o *outEntity) {
	if len(text) > maxParsedAddedLen || m.addedParsesN.Load() >= maxParsedAdded {
		return
	}
	t := *o
	if _, loaded := m.addedParses.LoadOrStore(text, &t); !loaded {
		m.addedParsesN.Add(1)
	}
}

// written reports whether module global value g is written.
func (wr *writer) written(g *Entity) bool {
	if wr.p.sp != nil {
		// A sparse plan writes exactly its kept global values: edits
		// leave out only named metadata.
		return wr.p.sp.kept(g)
	}
	return wr.outs.get(g.Index) != nil
}

// markMD records that numbered metadata id is reached: a full plan marks
// it, a sparse plan adds it to the output.
func (wr *writer) markMD(id int) error {
	if wr.addedMD[id] {
		return nil
	}
	n := wr.m.mds[id]
	if n == nil {
		return wr.fail("reference to undefined metadata !%d", id)
	}
	if wr.reach != nil {
		if !wr.reach[n.Index] {
			wr.reach[n.Index] = true
			wr.work = append(wr.work, n)
		}
		return nil
	}
	if wr.outs.get(n.Index) != nil {
		return nil
	}
	if !wr.p.sp.kept(n) {
		return wr.fail("metadata !%d is needed but was dropped", n.ID)
	}
	o, err := wr.newOut(n)
	if err != nil {
		return err
	}
	wr.outs.set(int32(n.Index), o)
	wr.work = append(wr.work, n)
	return nil
}

// checkRefs checks that every global value o references is written and
// marks the metadata it references.
func (wr *writer) checkRefs(o *outEntity) error {
	if o.rp == nil {
		return wr.checkEntityRefs(o.e)
	}
	for _, b := range o.rp.globals {
		g := lookupGlobalName(wr.m, b)
		if g != nil && wr.written(g) {
			continue
		}
		if g == nil && wr.addedNames[decodeName(b)] {
			continue
		}
		return wr.fail("%s references @%s, which is not in the output", describe(o), decodeName(b))
	}
	for _, id := range o.rp.mds {
		if err := wr.markMD(id); err != nil {
			return err
		}
	}
	return nil
}

// checkEntityRefs is checkRefs of a module entity written as it is.
func (wr *writer) checkEntityRefs(e *Entity) error {
	for _, g := range e.Globals {
		if !wr.written(g) {
			return wr.fail("%s references @%s, which is not in the output", describeEntity(e), g.Name)
		}
	}
	for _, n := range e.Metadata {
		if err := wr.markMD(n.ID); err != nil {
			return err
		}
	}
	return nil
}

// describe names an output entity for messages.
func describe(o *outEntity) string {
	if o.e == nil {
		return "added " + o.kind.String()
	}
	return describeEntity(o.e)
}

// describeEntity names a module entity for messages.
func describeEntity(e *Entity) string {
	switch {
	case e.Kind.IsGlobalValue():
		return "@" + e.Name
	case e.Kind == KindNamedMD:
		return "!" + e.Name
	case e.Kind == KindMDNode:
		return "!" + e.Name
	}
	return e.Kind.String()
}

// checkReferences checks the references of everything written, from the
// chosen, shared and added entities through the metadata they reach, and
// leaves out the numbered metadata nothing reaches (unless the plan keeps
// all).
func (wr *writer) checkReferences() error {
	first, shared := wr.first, wr.shared
	// Both lists are in module order: check in module order.
	for len(first) > 0 || len(shared) > 0 {
		if len(first) == 0 || len(shared) > 0 && int(shared[0]) < first[0].e.Index {
			if err := wr.checkEntityRefs(wr.m.Entities[shared[0]]); err != nil {
				return err
			}
			shared = shared[1:]
			continue
		}
		if o := first[0]; o.kind != KindMDNode {
			if err := wr.checkRefs(o); err != nil {
				return err
			}
		}
		first = first[1:]
	}
	for _, o := range wr.added {
		if err := wr.checkRefs(o); err != nil {
			return err
		}
	}
	if wr.p.keepAllMD {
		if err := wr.reachAllMD(); err != nil {
			return err
		}
	}
	for len(wr.work) > 0 {
		n := wr.work[len(wr.work)-1]
		wr.work = wr.work[:len(wr.work)-1]
		o := wr.outs.get(n.Index)
		if o == nil {
			return wr.fail("metadata !%d is needed but was dropped", n.ID)
		}
		if err := wr.checkRefs(o); err != nil {
			return err
		}
	}
	if wr.reach != nil {
		for i, o := range wr.outs.dense {
			if o != nil && o.kind == KindMDNode && !wr.reach[i] {
				wr.outs.dense[i] = nil
			}
		}
	}
	return nil
}

// reachAllMD marks every kept numbered metadata node as reached.
func (wr *writer) reachAllMD() error {
	if wr.reach != nil {
		for _, o := range wr.first {
			if o.kind == KindMDNode && !wr.reach[o.e.Index] {
				wr.reach[o.e.Index] = true
				wr.work = append(wr.work, o.e)
			}
		}
		return nil
	}
	for _, e := range wr.m.Entities {
		if e.Kind == KindMDNode && wr.p.sp.kept(e) {
			if err := wr.markMD(e.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// keepUsedComdats writes only the comdats a written global value is in:
// a full plan leaves the others out, a sparse plan adds the used ones.
func (wr *writer) keepUsedComdats() error {
	if wr.p.sp == nil {
		usedComdat := map[*Entity]bool{}
		for _, list := range [2][]*outEntity{wr.first, wr.added} {
			for _, o := range list {
				if c := wr.comdatOf(o); c != nil {
					usedComdat[c] = true
				}
			}
		}
		for i, o := range wr.outs.dense {
			if o != nil && o.kind == KindComdat && !usedComdat[o.e] {
				wr.outs.dense[i] = nil
			}
		}
		return nil
	}
	for _, list := range [2][]*outEntity{wr.first, wr.added} {
		for _, o := range list {
			c := wr.comdatOf(o)
			if c == nil || wr.outs.get(c.Index) != nil || !wr.p.sp.kept(c) {
				continue
			}
			co, err := wr.newOut(c)
			if err != nil {
				return err
			}
			if co != nil {
				wr.outs.set(int32(c.Index), co)
			}
		}
	}
	return nil
}

// comdatOf returns the comdat entity the global value o writes is in, or
// nil.
func (wr *writer) comdatOf(o *outEntity) *Entity {
	if o.rp == nil {
		return o.e.comdat // found once by the parse
	}
	if o.comdat == "" {
		return nil
	}
	return wr.m.comdats[o.comdat]
}

// keepUsedGroups writes only the attribute groups a written entity
// references, as LLVM does: a full plan leaves the others out, a sparse
// plan adds the used ones. Added attribute groups are always written.
func (wr *writer) keepUsedGroups() error {
	var used []int32
	seen := map[int32]bool{}
	use := func(gs []int32) {
		for _, g := range gs {
			if !seen[g] {
				seen[g] = true
				used = append(used, g)
			}
		}
	}
	groupsOf := func(o *outEntity) []int32 {
		if o.rp != nil {
			return o.rp.groups
		}
		if o.e != nil {
			if ed := wr.p.edits[o.e]; ed != nil && ed.group != nil {
				return ed.group.groups
			}
		}
		return o.e.groups
	}
	for _, o := range wr.added {
		use(o.rp.groups)
	}
	if wr.p.sp == nil {
		for _, o := range wr.outs.dense {
			if o != nil && o.kind != KindAttrGroup {
				use(groupsOf(o))
			}
		}
		for i, o := range wr.outs.dense {
			if o != nil && o.kind == KindAttrGroup && !seen[int32(o.e.ID)] {
				wr.outs.dense[i] = nil
			}
		}
		return nil
	}
	wr.outs.sparse.each(func(_ int32, o *outEntity) { use(groupsOf(o)) })
	for _, i := range wr.shared {
		use(wr.m.Entities[i].groups)
	}
	slices.Sort(used)
	for _, id := range used {
		g := wr.m.groups[int(id)]
		if g == nil || !wr.p.sp.kept(g) || wr.outs.get(g.Index) != nil {
			continue
		}
		o, err := wr.newOut(g)
		if err != nil {
			return err
		}
		if o != nil {
			wr.outs.set(int32(g.Index), o)
		}
	}
	return nil
}

// item is one module entity in the output's order: o is its outEntity, or
// nil for a shared entity written as it is.
type item struct {
	o *outEntity
	e *Entity
}

// ordered returns the module entities written, in module order.
func (wr *writer) ordered() []item {
	if d := wr.outs.dense; d != nil {
		var out []item
		for _, o := range d {
			if o != nil {
				out = append(out, item{o, o.e})
			}
		}
		return out
	}
	idx := slices.Grow(wr.idx, wr.outs.sparse.len())
	wr.outs.sparse.each(func(i int32, o *outEntity) {
		if o != nil {
			idx = append(idx, i)
		}
	})
	slices.Sort(idx)
	wr.idx = idx
	shared := wr.shared
	out := slices.Grow(wr.order, len(idx)+len(shared))
	for len(idx) > 0 || len(shared) > 0 {
		if len(idx) == 0 || len(shared) > 0 && shared[0] < idx[0] {
			out = append(out, item{e: wr.m.Entities[shared[0]]})
			shared = shared[1:]
			continue
		}
		o := wr.outs.sparse.get(idx[0])
		out = append(out, item{o, o.e})
		idx = idx[1:]
	}
	wr.order = out
	return out
}

// globalsFirst puts the global variables, aliases and ifuncs written
// before the first function, as LLVM prints a module (its global values
// lists come before its functions): text that defines a global after a
// function (hand-written, or a front end's) is written as LLVM would
// write it. The order of each kind is kept; order is returned as it is
// when nothing comes after a function.
func globalsFirst(order []item) []item {
	first := -1
	late := false
	for i, it := range order {
		switch k := it.e.Kind; {
		case k == KindFunction && first < 0:
			first = i
		case first >= 0 && (k == KindGlobalVar || k == KindAlias || k == KindIFunc):
			late = true
		}
	}
	if !late {
		return order
	}
	out := make([]item, 0, len(order))
	out = append(out, order[:first]...)
	for _, k := range []Kind{KindGlobalVar, KindAlias, KindIFunc} {
		for _, it := range order[first:] {
			if it.e.Kind == k {
				out = append(out, it)
			}
		}
	}
	for _, it := range order[first:] {
		if k := it.e.Kind; k != KindGlobalVar && k != KindAlias && k != KindIFunc {
			out = append(out, it)
		}
	}
	return out
}

// groupsLast moves the attribute groups written before the last function
// to just after it, keeping their order: LLVM's printer writes them after
// every function, while a hand-written module may define one between
// functions. The order is returned as it is when no group comes early.
func groupsLast(order []item) []item {
	last := -1
	for i, it := range order {
		if it.e.Kind == KindFunction {
			last = i
		}
	}
	early := false
	for _, it := range order[:max(last, 0)] {
		if it.e.Kind == KindAttrGroup {
			early = true
			break
		}
	}
	if !early {
		return order
	}
	out := make([]item, 0, len(order))
	for _, it := range order[:last+1] {
		if it.e.Kind != KindAttrGroup {
			out = append(out, it)
		}
	}
	for _, it := range order[:last+1] {
		if it.e.Kind == KindAttrGroup {
			out = append(out, it)
		}
	}
	return append(out, order[last+1:]...)
}

// renumberGlobals numbers the unnamed global values written densely, in
// order; nil when every one keeps its number.
func renumberGlobals(order []item) map[int]int {
	var renum map[int]int
	identity := true
	next := 0
	for _, it := range order {
		if it.e.Numbered && it.e.Kind.IsGlobalValue() {
			if renum == nil {
				renum = map[int]int{}
			}
			renum[it.e.ID] = next
			if it.e.ID != next {
				identity = false
			}
			next++
		}
	}
	if identity {
		return nil
	}
	return renum
}

// stream writes the entities in order, each added entity after the last
// written entity of its kind (at the end when there is none), with @N
// references renumbered.
func (wr *writer) stream(s *streamer, order []item) {
	var lastOfKind [KindSummary + 1]int
	for k := range lastOfKind {
		lastOfKind[k] = -1
	}
	for i, it := range order {
		lastOfKind[it.e.Kind] = i
	}
	putAdded := func(k Kind) {
		for _, o := range wr.added {
			if o.kind == k {
				s.put(o.text, nil, true, false, false)
				s.endLine()
			}
		}
	}
	for i, it := range order {
		e := it.e
		s.putLead(e)
		if o := it.o; o == nil {
			s.put(e.Text, nil, e.numAt, s.textClean(e), s.textEndsLine(e))
		} else {
			// The unedited rest of an entity ends where its Text does.
			s.put(o.text, o.rest, o.rp != nil || e.numAt, o.rp == nil && s.textClean(e), len(o.rest) > 0 && s.textEndsLine(e))
		}
		if lastOfKind[e.Kind] == i {
			putAdded(e.Kind)
		}
	}
	var placed [KindSummary + 1]bool
	for _, o := range wr.added {
		if lastOfKind[o.kind] < 0 {
			placed[o.kind] = true
		}
	}
	for k, p := range placed {
		if p {
			putAdded(Kind(k))
		}
	}
	s.put(wr.m.Tail, nil, false, false, false)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// decodeName decodes a reference token without its '@'.
func decodeName(b []byte) string {
	if len(b) > 0 && b[0] == '"' {
		return unescape(b[1 : len(b)-1])
	}
	return unescape(b)
}

// reparse parses text as one entity and records what the writer needs.
func (p *Plan) reparse(o *outEntity, text []byte) error {
	scratch := newModule("<edited>", text)
	// The edit sees the module's types but never adds to them: plans of one
	// module may be written concurrently.
	scratch.baseTypes = p.m.types
	sp := &parser{m: scratch, file: "<edited>", src: text, lx: lexer{src: text, end: len(text)}, lines: new([]int)}
	sp.selfAt, sp.calleeAt = -1, -1
	e := &Entity{}
	if err := sp.guard(func() { sp.parseEntity(e) }); err != nil {
		return err
	}
	sp.lx.pos = sp.prevEnd
	sp.lx.skipSpace()
	if sp.lx.pos < len(text) {
		return sp.errorAt(sp.lx.pos, "unexpected text after the entity")
	}
	rp := &reparsed{name: e.Name, numbered: e.Numbered, id: e.ID, groups: sp.entityGroups(e)}
	o.text, o.rest, o.kind, o.rp = text, nil, e.Kind, rp
	if e.Func != nil {
		o.comdat = e.Func.Comdat
	} else if e.Var != nil {
		o.comdat = e.Var.Comdat
	}
	for _, r := range sp.refs {
		rp.globals = append(rp.globals, text[r.start+1:r.end])
	}
	for _, r := range sp.mdRefs {
		rp.mds = append(rp.mds, int(r.id))
	}
	return nil
}

// render applies an entity's edits: the new text is text followed by
// rest, the unedited end of the entity (a slice of the source, not copied);
// both nil means the entity is left out.
func (p *Plan) render(e *Entity, ed *edit) (text, rest []byte, err error) {
	if ed.text != nil {
		return []byte(*ed.text), nil, nil
	}
	if ed.setOps {
		return renderNamedOps(e, ed)
	}
	var sp splices
	var h *GlobalHeader
	isVarDecl := false
	switch {
	case e.Func != nil:
		h = &e.Func.GlobalHeader
		err = p.functionSplices(e, ed, &sp)
	case e.Var != nil:
		h = &e.Var.GlobalHeader
		isVarDecl, err = varSplices(e, ed, &sp)
	case e.Alias != nil:
		h = &e.Alias.GlobalHeader
		if ed.declare {
			err = fmt.Errorf("@%s: an alias cannot become a declaration", e.Name)
		}
	default:
		if ed.declare || ed.linkage != "" || len(ed.fnAttrs) > 0 || len(ed.params) > 0 || len(ed.replace) > 0 {
			err = fmt.Errorf("%s: edits apply to functions and global variables only", e.Kind)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if h != nil && (ed.linkage != "" || ed.declare) {
		linkageSplices(e, ed, h, isVarDecl, &sp)
	}
	return p.spliceText(e, sp)
}

// splices are the changes an entity's edits make to its text.
type splices []splice

// add replaces the text of s with text (an insertion when s is empty).
func (sp *splices) add(s span, text string) {
	*sp = append(*sp, splice{int(s.Start), int(s.End), text})
}

// renderNamedOps renders a named metadata node whose operands were set;
// none leaves it out.
func renderNamedOps(e *Entity, ed *edit) (text, rest []byte, err error) {
	if len(ed.namedOps) == 0 {
		return nil, nil, nil
	}
	if e.Kind != KindNamedMD {
		return nil, nil, fmt.Errorf("SetNamedMDOps on %s", e.Kind)
	}
	s := "!" + mdNameText(e.Name) + " = !{" + strings.Join(ed.namedOps, ", ") + "}\n"
	return []byte(s), nil, nil
}

// functionSplices adds the splices of a function's edits: made a
// declaration, its body replaced or instructions of it replaced, then
// attributes added to it and to its parameters.
func (p *Plan) functionSplices(e *Entity, ed *edit, sp *splices) error {
	f := e.Func
	var bodyAt *splice
	switch {
	case ed.declare && !f.Declaration:
		sp.add(f.declAt, "declare")
		for _, d := range f.dropAt {
			sp.add(d, "")
		}
		sp.add(span{int32(p.headerCut(f)), f.body.End}, "")
	case ed.body != nil:
		if f.Declaration {
			return fmt.Errorf("@%s: ReplaceBody on a declaration", e.Name)
		}
		for _, d := range f.dropAt {
			sp.add(d, "")
		}
		// Added after the added attributes, which may go where the
		// cut starts.
		bodyAt = &splice{p.headerCut(f), int(f.body.End), " " + *ed.body}
	default:
		for _, r := range ed.replace {
			if r.start < int(f.body.Start) || r.end > int(f.body.End) || r.start > r.end {
				return fmt.Errorf("@%s: instruction range %d-%d is outside the body", e.Name, r.start, r.end)
			}
			sp.add(span{int32(r.start), int32(r.end)}, p.replacementText(r))
		}
	}
	if g := ed.group; g != nil {
		if len(f.AttrGroups) == 1 {
			sp.add(f.groupAt, "#"+itoa(g.to))
		} else {
			sp.add(span{f.attrEnd, f.attrEnd}, " #"+itoa(g.to))
		}
	}
	for _, a := range ed.fnAttrs {
		sp.add(span{f.attrEnd, f.attrEnd}, " "+a.Text())
	}
	for _, pa := range ed.params {
		if pa.i < 0 || pa.i >= len(f.Params) {
			return fmt.Errorf("@%s: no parameter %d", e.Name, pa.i)
		}
		at := f.Params[pa.i].attrEnd
		sp.add(span{at, at}, " "+pa.a.Text())
	}
	if bodyAt != nil {
		*sp = append(*sp, *bodyAt)
	}
	return nil
}

// headerCut returns where a cut of f's body starts: the end of its header
// without the blanks before the body.
func (p *Plan) headerCut(f *Function) int {
	src := p.m.Src
	end := int(f.headerEnd)
	for end > int(f.attrEnd) && isSpace(src[end-1]) {
		end--
	}
	return end
}

// varSplices adds the splices of a global variable's edits (its
// initializer cut when it becomes a declaration) and reports whether it
// does.
func varSplices(e *Entity, ed *edit, sp *splices) (isVarDecl bool, err error) {
	g := e.Var
	if ed.declare && g.Init != "" {
		isVarDecl = true
		sp.add(g.initAt, "")
		for _, d := range g.dropAt {
			sp.add(d, "")
		}
	}
	if len(ed.fnAttrs) > 0 {
		return isVarDecl, fmt.Errorf("@%s: function attributes added to a global variable", e.Name)
	}
	return isVarDecl, nil
}

// linkageSplices adds the splices of a global value's new linkage (set, or
// external for a declaration), with what a local linkage implies.
func linkageSplices(e *Entity, ed *edit, h *GlobalHeader, isVarDecl bool, sp *splices) {
	l := ed.linkage
	if l == "" {
		l = External
		if h.Linkage == ExternWeak {
			l = ExternWeak
		}
	}
	if l == h.Linkage && !isVarDecl {
		return
	}
	text := string(l) + " "
	if l == External && !(isVarDecl || (e.Var != nil && e.Var.Init == "")) {
		text = ""
	}
	sp.add(h.linkageAt, text)
	if l.IsLocal() {
		// Local linkage implies dso_local and default visibility;
		// LLVM prints neither.
		if h.preemptAt.End > 0 && h.Preemption == "dso_local" {
			sp.add(h.preemptAt, "")
		}
		if h.visAt.End > 0 {
			sp.add(h.visAt, "")
		}
		if h.dllAt.End > 0 {
			sp.add(h.dllAt, "")
		}
	}
}

// spliceText applies splices sp to e's text, returning the new text up to
// the last splice and the unedited rest.
func (p *Plan) spliceText(e *Entity, sp splices) (text, rest []byte, err error) {
	src := p.m.Src
	// At one position an insertion goes before a cut that starts there.
	slices.SortStableFunc(sp, func(a, b splice) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b2i(a.end > a.start) - b2i(b.end > b.start)
	})
	size := 0
	if len(sp) > 0 {
		size = max(0, sp[len(sp)-1].end-e.Off)
		for _, s := range sp {
			size += len(s.text)
		}
	}
	out := make([]byte, 0, size)
	pos := e.Off
	for _, s := range sp {
		if s.start < pos {
			return nil, nil, fmt.Errorf("@%s: overlapping edits", e.Name)
		}
		out = append(out, src[pos:s.start]...)
		out = append(out, s.text...)
		pos = s.end
	}
	end := e.Off + len(e.Text)
	return out, src[pos:end:end], nil
}

// replacementText joins replacement lines with the indentation of the
// replaced instruction's line.
func (p *Plan) replacementText(r instrEdit) string {
	src := p.m.Src
	ls := r.start
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	indent := "  "
	if allSpace(src[ls:r.start]) {
		indent = string(src[ls:r.start])
	}
	return strings.Join(r.lines, "\n"+indent)
}

func allSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// mdNameText writes a metadata name, escaping what a bare name cannot hold.
func mdNameText(name string) string {
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isIdent(c) && !(i == 0 && isDigit(c)) {
			b = append(b, c)
		} else {
			b = append(b, '\\', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return string(b)
}

// appendRenumbered appends text to dst with every @N reference renumbered,
// leaving comments, strings and quoted names alone.
func appendRenumbered(dst, text []byte, renum map[int]int) []byte {
	last := 0
	for i := 0; ; {
		at, end, nn := nextRenumbered(text, i, renum)
		if at < 0 {
			return append(dst, text[last:]...)
		}
		dst = append(dst, text[last:at+1]...)
		dst = strconv.AppendInt(dst, int64(nn), 10)
		last, i = end, end
	}
}

// nextRenumbered finds, from text[i:], the next @N reference that renum
// gives another number, outside comments, strings and quoted names: it
// returns the offsets of its '@' and of its end, and its new number; at is
// -1 when there is none.
func nextRenumbered(text []byte, i int, renum map[int]int) (at, end, nn int) {
	for ; i < len(text); i++ {
		i += lenWithout(text[i:], &renumberStop)
		if i == len(text) {
			break
		}
		switch text[i] {
		case ';':
			if j := bytes.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(text)
			}
		case '"':
			if j := bytes.IndexByte(text[i+1:], '"'); j >= 0 {
				i += 1 + j
			} else {
				i = len(text)
			}
		case '@':
			j := i + 1
			if j < len(text) && text[j] == '"' {
				j++
				for j < len(text) && text[j] != '"' {
					j++
				}
				i = j
				continue
			}
			for j < len(text) && isDigit(text[j]) {
				j++
			}
			if j == i+1 {
				continue
			}
			n, err := strconv.Atoi(string(text[i+1 : j]))
			if nn, ok := renum[n]; err == nil && ok && nn != n {
				return i, j, nn
			}
			i = j - 1
		}
	}
	return -1, 0, 0
}

// renumberStop marks the bytes nextRenumbered looks at: the starts of
// comments, strings and global references.
var renumberStop = [256]uint8{';': 1, '"': 1, '@': 1}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
