package llvmir

import "io"

// Plan describes one output module made from a parsed module: which
// entities it keeps and the local edits applied to them. Build it with
// Module.NewPlan (every entity kept) or Module.NewSparsePlan (only the given
// global values kept), then Write it. A Plan does not change its Module;
// plans of one module may be written concurrently.
type Plan struct {
	m     *Module
	drop  []bool       // by entity index; nil for a sparse plan
	sp    *sparseState // the kept global values of a sparse plan
	edits map[*Entity]*edit
	slab  []edit // where edits are allocated, a chunk at a time
	added []addedEntity

	nextMD    int
	nextGroup int
	keepAllMD bool
	grouped   bool // groupFnAttrs ran
}

// edit is what a plan changes in one entity.
type edit struct {
	declare  bool
	linkage  Linkage
	fnAttrs  []Attr
	params   []paramAttr
	replace  []instrEdit
	text     *string // the whole entity replaced
	body     *string // a definition's body replaced, its attachments dropped
	namedOps []string
	setOps   bool
	// group, when set, replaces the header's attribute group (groupFnAttrs):
	// group.to is the group written, group.groups what the function then
	// references.
	group *groupSwap
	// groupAttrs are an attribute group's attributes set by SetGroupAttrs.
	groupAttrs Attrs
}

// headerOnly reports whether the edit changes only header keywords (the
// linkage and what goes with it, added function attributes): the entity
// then references what it did, and the writer need not parse it again.
func (ed *edit) headerOnly() bool {
	return !ed.declare && len(ed.replace) == 0 && ed.text == nil && ed.body == nil && !ed.setOps
}

// linkageOnly reports whether the edit changes only the linkage.
func (ed *edit) linkageOnly() bool {
	return ed.linkage != "" && ed.headerOnly() && len(ed.fnAttrs) == 0 && len(ed.params) == 0 && len(ed.namedOps) == 0
}

type paramAttr struct {
	i int
	a Attr
}

type instrEdit struct {
	start, end int
	lines      []string
}

type addedEntity struct {
	kind Kind
	text string
}

// NewPlan starts a plan that keeps every entity unchanged.
func (m *Module) NewPlan() *Plan {
	return &Plan{
		m:         m,
		drop:      make([]bool, len(m.Entities)),
		edits:     map[*Entity]*edit{},
		nextMD:    m.maxMD + 1,
		nextGroup: m.maxGroup + 1,
	}
}

func (p *Plan) edit(e *Entity) *edit {
	ed := p.edits[e]
	if ed == nil {
		if len(p.slab) == cap(p.slab) {
			p.slab = make([]edit, 0, 8)
		}
		p.slab = p.slab[:len(p.slab)+1]
		ed = &p.slab[len(p.slab)-1]
		p.edits[e] = ed
	}
	return ed
}

// Keep keeps e in the output (the default, except for the global values of
// a sparse plan).
func (p *Plan) Keep(e *Entity) { p.setKept(e, true) }

// Drop leaves e out of the output.
func (p *Plan) Drop(e *Entity) { p.setKept(e, false) }

func (p *Plan) setKept(e *Entity, keep bool) {
	if p.sp != nil {
		p.sp.set(e, keep)
		return
	}
	p.drop[e.Index] = !keep
}

// Kept reports whether e is in the output. Numbered metadata and comdats
// that are kept are still written only when something written uses them.
func (p *Plan) Kept(e *Entity) bool {
	if p.sp != nil {
		return p.sp.kept(e)
	}
	return !p.drop[e.Index]
}

// KeepOnly keeps exactly the global values (functions, variables, aliases,
// ifuncs) for which keep returns true; other entities are not affected. It
// looks at every entity of the module.
func (p *Plan) KeepOnly(keep func(*Entity) bool) {
	for _, e := range p.m.Entities {
		if e.Kind.IsGlobalValue() {
			p.setKept(e, keep(e))
		}
	}
}

// MakeDeclaration turns a function definition into a declaration (define
// becomes declare; the body, comdat, prefix, prologue, personality and
// metadata attachments go) or a global variable into an external
// declaration (the initializer and comdat go). Unless SetLinkage says
// otherwise, the linkage becomes external (extern_weak stays).
func (p *Plan) MakeDeclaration(e *Entity) { p.edit(e).declare = true }

// SetLinkage changes the linkage of a function, global variable or alias.
// External removes the keyword.
func (p *Plan) SetLinkage(e *Entity, l Linkage) { p.edit(e).linkage = l }

// AddFnAttr adds a function attribute to a function's header. A string
// attribute goes into the function's attribute group, as LLVM prints a
// function's attributes (see groupFnAttrs); others are written inline,
// after its existing attributes.
func (p *Plan) AddFnAttr(e *Entity, a Attr) {
	ed := p.edit(e)
	ed.fnAttrs = append(ed.fnAttrs, a)
}

// AddParamAttr adds an attribute to parameter i of function e's header
// (written after the parameter's existing attributes).
func (p *Plan) AddParamAttr(e *Entity, i int, a Attr) {
	ed := p.edit(e)
	ed.params = append(ed.params, paramAttr{i, a})
}

// ReplaceInstr replaces the instruction at [start, end) of function e's
// body (Call.Start, Call.End) with lines, each one instruction without
// indentation or newline. The first line takes the instruction's place, the
// others follow on lines of their own with the same indentation. Numbered
// values must keep their numbering: if the replaced instruction defined %N,
// one of the lines must define %N and every inserted value must be named.
func (p *Plan) ReplaceInstr(e *Entity, start, end int, lines ...string) {
	ed := p.edit(e)
	ed.replace = append(ed.replace, instrEdit{start: start, end: end, lines: lines})
}

// ReplaceBody replaces the body of function definition e with body (from
// its "{" to its "}") and drops what goes with the old body: the metadata
// attachments, comdat, prefix, prologue and personality of its header.
func (p *Plan) ReplaceBody(e *Entity, body string) { p.edit(e).body = &body }

// ReplaceText replaces the whole text of e (its Lead stays); text should
// end with a newline.
func (p *Plan) ReplaceText(e *Entity, text string) { p.edit(e).text = &text }

// Module is the module the plan writes from.
func (p *Plan) Module() *Module { return p.m }

// SetNamedMDOps rewrites the operands of named metadata e, each given as
// its text ("!3"); with no operands the named metadata is left out.
func (p *Plan) SetNamedMDOps(e *Entity, ops []string) {
	ed := p.edit(e)
	ed.namedOps, ed.setOps = ops, true
}

// Add adds a new entity of the given kind (a declaration, a global
// variable, named metadata, …), text without a final newline. It is written
// after the last kept entity of its kind (at the end when there is none),
// in the order added.
func (p *Plan) Add(kind Kind, text string) {
	p.added = append(p.added, addedEntity{kind: kind, text: text})
}

// NewMD adds numbered metadata "!N = text" with a fresh number and returns
// N.
func (p *Plan) NewMD(text string) int {
	n := p.nextMD
	p.nextMD++
	p.Add(KindMDNode, "!"+itoa(n)+" = "+text)
	return n
}

// NewAttrGroup adds "attributes #N = { attrs }" with a fresh number and
// returns N.
func (p *Plan) NewAttrGroup(attrs Attrs) int {
	n := p.nextGroup
	p.nextGroup++
	s := "attributes #" + itoa(n) + " = {"
	for _, a := range attrs {
		s += " " + a.Text()
	}
	p.Add(KindAttrGroup, s+" }")
	return n
}

// KeepAllMetadata turns off the default pruning, which leaves out numbered
// metadata no written entity reaches.
func (p *Plan) KeepAllMetadata() { p.keepAllMD = true }

// Write writes the output module to w, streaming. It fails, writing
// nothing useful, when a written entity references a global value that is
// not written. Different plans of one module may be written concurrently:
// writing reads the module and changes only the plan.
func (p *Plan) Write(w io.Writer) error {
	_, err := p.write(make([]byte, 0, flushAt+4096), w, nil, WriteOptions{})
	return err
}

// Append renders the output module, as Write writes it but with the given
// options, at the end of dst and returns the extended buffer.
func (p *Plan) Append(dst []byte, o WriteOptions) ([]byte, error) {
	return p.write(dst, nil, nil, o)
}

// Gather renders the output module as Append does, into g (whose storage
// it reuses, after g.Reset): the module's bytes are g.Pieces. Long pieces
// of the module's source text are not copied but referenced, so g holds
// the module's source until it is reset, and the output can be written
// with one writev(2) from the source itself.
func (p *Plan) Gather(g *Gathered, o WriteOptions) error {
	buf, err := p.write(g.buf[:0], nil, g, o)
	g.buf = buf
	return err
}
