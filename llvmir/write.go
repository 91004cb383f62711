package llvmir

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// outEntity is one entity of the output: a module entity (possibly
// re-rendered) or an added one.
type outEntity struct {
	e        *Entity // the module's entity; nil for an added one
	text     []byte  // the text to write (Lead not included)
	rest     []byte  // written right after text: the unedited end of a header-edited entity
	kind     Kind
	name     string // global value name of an added entity
	numbered bool
	id       int      // MD id of a node, group id
	globals  [][]byte // @-reference tokens (without '@') of re-rendered/added text
	mds      []int
	comdat   string
	reparsed bool // globals/mds/comdat come from text, not from e
}

type splice struct {
	start, end int
	text       string
}

// writer is the state of one Plan.Write. Writing is a few steps over it:
// collect the module entities written (rendering their edits) and the
// added ones, check every reference and find the metadata they reach,
// keep the comdats in use, renumber unnamed globals, and stream.
type writer struct {
	p *Plan
	m *Module
	// outs are the module entities written; first those chosen before
	// metadata and comdats were added for what they reach, in module order.
	outs  outTable
	first []*outEntity
	added []*outEntity
	// addedNames and addedMD are the global values and numbered metadata
	// the added entities define.
	addedNames map[string]bool
	addedMD    map[int]bool
	// reach marks, for a full plan, the metadata nodes written entities
	// reach (by entity index); work are nodes reached but not yet checked.
	// A sparse plan's outs hold only reached nodes.
	reach []bool
	work  []*Entity
}

// write is Plan.Write.
func (p *Plan) write(w io.Writer) error {
	wr := &writer{p: p, m: p.m}
	if err := wr.collect(); err != nil {
		return err
	}
	if err := wr.collectAdded(); err != nil {
		return err
	}
	if err := wr.checkReferences(); err != nil {
		return err
	}
	if err := wr.keepUsedComdats(); err != nil {
		return err
	}
	order := wr.outs.ordered()
	return wr.stream(w, order, renumberGlobals(order))
}

func (wr *writer) fail(format string, args ...any) error {
	return fmt.Errorf("%s: writing module: %s", wr.m.File, fmt.Sprintf(format, args...))
}

// newOut renders an entity's edits; nil means it is left out.
func (wr *writer) newOut(e *Entity) (*outEntity, error) {
	o := &outEntity{e: e, text: e.Text, kind: e.Kind}
	if e.Func != nil {
		o.comdat = e.Func.Comdat
	} else if e.Var != nil {
		o.comdat = e.Var.Comdat
	}
	ed := wr.p.edits[e]
	if ed == nil {
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

// collect chooses the module entities written: for a full plan every kept
// one (unused numbered metadata and comdats are pruned later); for a
// sparse plan the kept global values and fixed entities (reachable
// metadata and used comdats are added later).
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
	cand := p.sp.candidates()
	wr.outs.sparse = make(map[int32]*outEntity, len(cand)+len(cand)/2)
	for _, i := range cand {
		if err := wr.choose(i, m.Entities[i]); err != nil {
			return err
		}
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
	wr.added = make([]*outEntity, 0, len(wr.p.added))
	wr.addedNames = map[string]bool{}
	wr.addedMD = map[int]bool{}
	for _, a := range wr.p.added {
		o := &outEntity{}
		if err := wr.p.reparse(o, []byte(a.text)); err != nil {
			return wr.fail("added entity: %v", err)
		}
		switch {
		case o.numbered && o.kind.IsGlobalValue():
			return wr.fail("added entity %q defines an unnamed global; give it a name", firstLine(a.text))
		case o.kind.IsGlobalValue():
			wr.addedNames[o.name] = true
		case o.kind == KindMDNode:
			wr.addedMD[o.id] = true
		}
		wr.added = append(wr.added, o)
	}
	return nil
}

// written reports whether module global value g is written.
func (wr *writer) written(g *Entity) bool { return wr.outs.get(g.Index) != nil }

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
	if o.reparsed {
		for _, b := range o.globals {
			g := lookupGlobalName(wr.m, b)
			if g != nil && wr.written(g) {
				continue
			}
			if g == nil && wr.addedNames[decodeName(b)] {
				continue
			}
			return wr.fail("%s references @%s, which is not in the output", describe(o), decodeName(b))
		}
		for _, id := range o.mds {
			if err := wr.markMD(id); err != nil {
				return err
			}
		}
		return nil
	}
	for _, g := range o.e.Globals {
		if !wr.written(g) {
			return wr.fail("%s references @%s, which is not in the output", describe(o), g.Name)
		}
	}
	for _, n := range o.e.Metadata {
		if err := wr.markMD(n.ID); err != nil {
			return err
		}
	}
	return nil
}

// describe names an output entity for messages.
func describe(o *outEntity) string {
	switch {
	case o.e == nil:
		return "added " + o.kind.String()
	case o.e.Kind.IsGlobalValue():
		return "@" + o.e.Name
	case o.e.Kind == KindNamedMD:
		return "!" + o.e.Name
	case o.e.Kind == KindMDNode:
		return "!" + o.e.Name
	}
	return o.e.Kind.String()
}

// checkReferences checks the references of everything written, from the
// chosen and added entities through the metadata they reach, and leaves
// out the numbered metadata nothing reaches (unless the plan keeps all).
func (wr *writer) checkReferences() error {
	for _, o := range wr.first {
		if o.kind != KindMDNode {
			if err := wr.checkRefs(o); err != nil {
				return err
			}
		}
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
	usedComdat := map[string]bool{}
	var usedOrder []string
	for _, list := range [2][]*outEntity{wr.first, wr.added} {
		for _, o := range list {
			if o.comdat != "" && !usedComdat[o.comdat] {
				usedComdat[o.comdat] = true
				usedOrder = append(usedOrder, o.comdat)
			}
		}
	}
	if wr.p.sp == nil {
		for i, o := range wr.outs.dense {
			if o != nil && o.kind == KindComdat && !usedComdat[o.e.Name] {
				wr.outs.dense[i] = nil
			}
		}
		return nil
	}
	for _, name := range usedOrder {
		c := wr.m.comdats[name]
		if c == nil || !wr.p.sp.kept(c) || wr.outs.get(c.Index) != nil {
			continue
		}
		o, err := wr.newOut(c)
		if err != nil {
			return err
		}
		if o != nil {
			wr.outs.set(int32(c.Index), o)
		}
	}
	return nil
}

// renumberGlobals numbers the unnamed global values written densely, in
// order; nil when every one keeps its number.
func renumberGlobals(order []*outEntity) map[int]int {
	renum := map[int]int{}
	identity := true
	next := 0
	for _, o := range order {
		if o.e.Numbered && o.kind.IsGlobalValue() {
			renum[o.e.ID] = next
			if o.e.ID != next {
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
func (wr *writer) stream(w io.Writer, order []*outEntity, renum map[int]int) error {
	lastOfKind := map[Kind]int{}
	for i, o := range order {
		lastOfKind[o.kind] = i
	}
	s := &streamer{bw: bufio.NewWriterSize(w, 256<<10), renum: renum}
	putAdded := func(k Kind) {
		for _, o := range wr.added {
			if o.kind == k {
				s.put(o.text, nil, true)
				s.endLine()
			}
		}
	}
	for i, o := range order {
		s.put(o.e.Lead, nil, false)
		s.put(o.text, o.rest, o.reparsed || o.e.numAt)
		if lastOfKind[o.kind] == i {
			putAdded(o.kind)
		}
	}
	for _, k := range addedKindsWithoutPlace(wr.added, lastOfKind) {
		putAdded(k)
	}
	s.put(wr.m.Tail, nil, false)
	return s.bw.Flush()
}

// streamer writes output chunks, keeping an entity's text that does not
// end its line apart from a following token.
type streamer struct {
	bw     *bufio.Writer
	renum  map[int]int // nil: no @N changes
	needNL bool
}

// put writes chunk b; rest, when not empty, continues b (both pieces split
// at a token boundary). rewrite says the text may hold @N references to
// renumber.
func (s *streamer) put(b, rest []byte, rewrite bool) {
	if len(b) == 0 {
		b, rest = rest, nil
	}
	if len(b) == 0 {
		return
	}
	if s.needNL && !isSpace(b[0]) {
		s.bw.WriteByte('\n')
	}
	last := b
	for _, c := range [2][]byte{b, rest} {
		if len(c) == 0 {
			continue
		}
		last = c
		if rewrite && s.renum != nil {
			writeRenumbered(s.bw, c, s.renum)
		} else {
			s.bw.Write(c)
		}
	}
	s.needNL = !isSpace(last[len(last)-1])
}

// endLine ends the current line if the last chunk did not.
func (s *streamer) endLine() {
	if s.needNL {
		s.bw.WriteByte('\n')
		s.needNL = false
	}
}

// outTable holds the module entities a plan writes, by entity index: a
// slice over the whole module for a full plan, a map of only the written
// ones for a sparse plan.
type outTable struct {
	dense  []*outEntity
	sparse map[int32]*outEntity
}

func (t *outTable) set(i int32, o *outEntity) {
	if t.dense != nil {
		t.dense[i] = o
		return
	}
	t.sparse[i] = o
}

func (t *outTable) get(i int) *outEntity {
	if t.dense != nil {
		return t.dense[i]
	}
	return t.sparse[int32(i)]
}

// ordered returns the written entities in module order.
func (t *outTable) ordered() []*outEntity {
	if t.dense != nil {
		var out []*outEntity
		for _, o := range t.dense {
			if o != nil {
				out = append(out, o)
			}
		}
		return out
	}
	idx := make([]int32, 0, len(t.sparse))
	for i, o := range t.sparse {
		if o != nil {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	out := make([]*outEntity, len(idx))
	for k, i := range idx {
		out[k] = t.sparse[i]
	}
	return out
}

func addedKindsWithoutPlace(added []*outEntity, last map[Kind]int) []Kind {
	var ks []Kind
	seen := map[Kind]bool{}
	for _, o := range added {
		if _, ok := last[o.kind]; !ok && !seen[o.kind] {
			seen[o.kind] = true
			ks = append(ks, o.kind)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
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
	o.text, o.kind, o.reparsed = text, e.Kind, true
	o.name, o.numbered, o.id = e.Name, e.Numbered, e.ID
	if e.Func != nil {
		o.comdat = e.Func.Comdat
	} else if e.Var != nil {
		o.comdat = e.Var.Comdat
	}
	for _, r := range sp.refs {
		o.globals = append(o.globals, text[r.start+1:r.end])
	}
	for _, r := range sp.mdRefs {
		o.mds = append(o.mds, int(r.id))
	}
	return nil
}

// render applies an entity's edits: the new text is text followed by
// rest, the unedited end of the entity (a slice of the source, not copied);
// both nil means the entity is left out.
func (p *Plan) render(e *Entity, ed *edit) (text, rest []byte, err error) {
	src := p.m.Src
	if ed.text != nil {
		return []byte(*ed.text), nil, nil
	}
	if ed.setOps {
		if len(ed.namedOps) == 0 {
			return nil, nil, nil
		}
		if e.Kind != KindNamedMD {
			return nil, nil, fmt.Errorf("SetNamedMDOps on %s", e.Kind)
		}
		s := "!" + mdNameText(e.Name) + " = !{" + strings.Join(ed.namedOps, ", ") + "}\n"
		return []byte(s), nil, nil
	}
	var sp []splice
	add := func(s span, text string) {
		sp = append(sp, splice{int(s.Start), int(s.End), text})
	}
	var h *GlobalHeader
	isVarDecl := false
	switch {
	case e.Func != nil:
		f := e.Func
		h = &f.GlobalHeader
		if ed.declare && !f.Declaration {
			add(f.declAt, "declare")
			for _, d := range f.dropAt {
				add(d, "")
			}
			end := int(f.headerEnd)
			for end > int(f.attrEnd) && isSpace(src[end-1]) {
				end--
			}
			add(span{int32(end), f.body.End}, "")
		} else {
			for _, r := range ed.replace {
				if r.start < int(f.body.Start) || r.end > int(f.body.End) || r.start > r.end {
					return nil, nil, fmt.Errorf("@%s: instruction range %d-%d is outside the body", e.Name, r.start, r.end)
				}
				add(span{int32(r.start), int32(r.end)}, p.replacementText(r))
			}
		}
		for _, a := range ed.fnAttrs {
			add(span{f.attrEnd, f.attrEnd}, " "+a.Text())
		}
	case e.Var != nil:
		g := e.Var
		h = &g.GlobalHeader
		if ed.declare && g.Init != "" {
			isVarDecl = true
			add(g.initAt, "")
			for _, d := range g.dropAt {
				add(d, "")
			}
		}
		if len(ed.fnAttrs) > 0 {
			return nil, nil, fmt.Errorf("@%s: function attributes added to a global variable", e.Name)
		}
	case e.Alias != nil:
		h = &e.Alias.GlobalHeader
		if ed.declare {
			return nil, nil, fmt.Errorf("@%s: an alias cannot become a declaration", e.Name)
		}
	default:
		if ed.declare || ed.linkage != "" || len(ed.fnAttrs) > 0 || len(ed.replace) > 0 {
			return nil, nil, fmt.Errorf("%s: edits apply to functions and global variables only", e.Kind)
		}
	}
	if h != nil && (ed.linkage != "" || ed.declare) {
		l := ed.linkage
		if l == "" {
			l = External
			if h.Linkage == ExternWeak {
				l = ExternWeak
			}
		}
		if l != h.Linkage || isVarDecl {
			text := string(l) + " "
			if l == External && !(isVarDecl || (e.Var != nil && e.Var.Init == "")) {
				text = ""
			}
			add(h.linkageAt, text)
			if l.IsLocal() {
				// Local linkage implies dso_local and default visibility;
				// LLVM prints neither.
				if h.preemptAt.End > 0 && h.Preemption == "dso_local" {
					add(h.preemptAt, "")
				}
				if h.visAt.End > 0 {
					add(h.visAt, "")
				}
				if h.dllAt.End > 0 {
					add(h.dllAt, "")
				}
			}
		}
	}
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
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

// writeRenumbered writes text with every @N reference renumbered, leaving
// comments, strings and quoted names alone.
func writeRenumbered(w *bufio.Writer, text []byte, renum map[int]int) {
	last := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				j++
			}
			i = j
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
				w.Write(text[last : i+1])
				w.WriteString(strconv.Itoa(nn))
				last = j
			}
			i = j - 1
		}
	}
	w.Write(text[last:])
}
