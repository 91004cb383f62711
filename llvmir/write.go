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

// write is Plan.Write.
func (p *Plan) write(w io.Writer) error {
	m := p.m
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: writing module: %s", m.File, fmt.Sprintf(format, args...))
	}
	// newOut renders an entity's edits; nil means it is left out.
	newOut := func(e *Entity) (*outEntity, error) {
		o := &outEntity{e: e, text: e.Text, kind: e.Kind}
		if e.Func != nil {
			o.comdat = e.Func.Comdat
		} else if e.Var != nil {
			o.comdat = e.Var.Comdat
		}
		ed := p.edits[e]
		if ed == nil {
			return o, nil
		}
		text, rest, err := p.render(e, ed)
		if err != nil {
			return nil, fail("%v", err)
		}
		if text == nil && rest == nil {
			return nil, nil // named metadata left without operands
		}
		if ed.headerOnly() {
			// Linkage and attribute keywords add no reference: what the
			// entity references is what it did, and its body is written
			// from the source as it is.
			o.text, o.rest = text, rest
			return o, nil
		}
		if err := p.reparse(o, append(text, rest...)); err != nil {
			return nil, fail("@%s after edits: %v", e.Name, err)
		}
		return o, nil
	}

	// The module entities written: for a full plan every kept one (unused
	// numbered metadata and comdats are pruned below); for a sparse plan
	// the kept global values and fixed entities (reachable metadata and
	// used comdats are added below).
	var outs outTable
	var first []*outEntity // the entities above, in module order
	if p.sp == nil {
		outs.dense = make([]*outEntity, len(m.Entities))
		for i, e := range m.Entities {
			if p.drop[i] {
				continue
			}
			o, err := newOut(e)
			if err != nil {
				return err
			}
			if o != nil {
				outs.dense[i] = o
				first = append(first, o)
			}
		}
	} else {
		cand := p.sp.candidates()
		outs.sparse = make(map[int32]*outEntity, len(cand)+len(cand)/2)
		for _, i := range cand {
			o, err := newOut(m.Entities[i])
			if err != nil {
				return err
			}
			if o != nil {
				outs.sparse[i] = o
				first = append(first, o)
			}
		}
	}
	added := make([]*outEntity, 0, len(p.added))
	addedNames := map[string]bool{}
	for _, a := range p.added {
		o := &outEntity{}
		if err := p.reparse(o, []byte(a.text)); err != nil {
			return fail("added entity: %v", err)
		}
		if o.numbered && o.kind.IsGlobalValue() {
			return fail("added entity %q defines an unnamed global; give it a name", firstLine(a.text))
		}
		if o.kind.IsGlobalValue() {
			addedNames[o.name] = true
		}
		added = append(added, o)
	}

	// Which module global values are written.
	written := func(g *Entity) bool { return outs.get(g.Index) != nil }
	// Dangling references and reachable metadata.
	addedMD := map[int]bool{}
	for _, o := range added {
		if o.kind == KindMDNode {
			addedMD[o.id] = true
		}
	}
	var reach []bool // full plan: by entity index; a sparse plan's outs hold only reached nodes
	if p.sp == nil {
		reach = make([]bool, len(m.Entities))
	}
	var work []*Entity
	markMD := func(id int) error {
		if addedMD[id] {
			return nil
		}
		n := m.mds[id]
		if n == nil {
			return fail("reference to undefined metadata !%d", id)
		}
		if reach != nil {
			if !reach[n.Index] {
				reach[n.Index] = true
				work = append(work, n)
			}
			return nil
		}
		if outs.get(n.Index) != nil {
			return nil
		}
		if !p.sp.kept(n) {
			return fail("metadata !%d is needed but was dropped", n.ID)
		}
		o, err := newOut(n)
		if err != nil {
			return err
		}
		outs.sparse[int32(n.Index)] = o
		work = append(work, n)
		return nil
	}
	checkRefs := func(o *outEntity, what string) error {
		if o.reparsed {
			for _, b := range o.globals {
				g := lookupGlobalName(m, b)
				if g != nil && written(g) {
					continue
				}
				if g == nil && addedNames[decodeName(b)] {
					continue
				}
				return fail("%s references @%s, which is not in the output", what, decodeName(b))
			}
			for _, id := range o.mds {
				if err := markMD(id); err != nil {
					return err
				}
			}
			return nil
		}
		for _, g := range o.e.Globals {
			if !written(g) {
				return fail("%s references @%s, which is not in the output", what, g.Name)
			}
		}
		for _, n := range o.e.Metadata {
			if err := markMD(n.ID); err != nil {
				return err
			}
		}
		return nil
	}
	describe := func(o *outEntity) string {
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
	for _, o := range first {
		if o.kind != KindMDNode {
			if err := checkRefs(o, describe(o)); err != nil {
				return err
			}
		}
	}
	for _, o := range added {
		if err := checkRefs(o, describe(o)); err != nil {
			return err
		}
	}
	if p.keepAllMD {
		if reach != nil {
			for _, o := range first {
				if o.kind == KindMDNode && !reach[o.e.Index] {
					reach[o.e.Index] = true
					work = append(work, o.e)
				}
			}
		} else {
			for _, e := range m.Entities {
				if e.Kind == KindMDNode && p.sp.kept(e) {
					if err := markMD(e.ID); err != nil {
						return err
					}
				}
			}
		}
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		o := outs.get(n.Index)
		if o == nil {
			return fail("metadata !%d is needed but was dropped", n.ID)
		}
		if err := checkRefs(o, describe(o)); err != nil {
			return err
		}
	}
	if reach != nil {
		for i, o := range outs.dense {
			if o != nil && o.kind == KindMDNode && !reach[i] {
				outs.dense[i] = nil
			}
		}
	}
	// Comdats: only those a written global value is in.
	usedComdat := map[string]bool{}
	var usedOrder []string
	use := func(o *outEntity) {
		if o.comdat != "" && !usedComdat[o.comdat] {
			usedComdat[o.comdat] = true
			usedOrder = append(usedOrder, o.comdat)
		}
	}
	for _, o := range first {
		use(o)
	}
	for _, o := range added {
		use(o)
	}
	if p.sp == nil {
		for i, o := range outs.dense {
			if o != nil && o.kind == KindComdat && !usedComdat[o.e.Name] {
				outs.dense[i] = nil
			}
		}
	} else {
		for _, name := range usedOrder {
			c := m.comdats[name]
			if c == nil || !p.sp.kept(c) || outs.get(c.Index) != nil {
				continue
			}
			o, err := newOut(c)
			if err != nil {
				return err
			}
			if o != nil {
				outs.sparse[int32(c.Index)] = o
			}
		}
	}
	order := outs.ordered()

	// Dense renumbering of unnamed globals.
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

	// Stream.
	lastOfKind := map[Kind]int{}
	for i, o := range order {
		lastOfKind[o.kind] = i
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	needNL := false
	// put writes a chunk; an entity's text that does not end its line is
	// kept apart from a following token by a newline.
	// rest, when not empty, continues b (both pieces split at a token
	// boundary).
	put := func(b, rest []byte, rewrite bool) {
		if len(b) == 0 {
			b, rest = rest, nil
		}
		if len(b) == 0 {
			return
		}
		if needNL && !isSpace(b[0]) {
			bw.WriteByte('\n')
		}
		last := b
		for _, c := range [2][]byte{b, rest} {
			if len(c) == 0 {
				continue
			}
			last = c
			if rewrite && !identity {
				writeRenumbered(bw, c, renum)
			} else {
				bw.Write(c)
			}
		}
		needNL = !isSpace(last[len(last)-1])
	}
	putAdded := func(k Kind) {
		for _, o := range added {
			if o.kind == k {
				put(o.text, nil, true)
				if needNL {
					bw.WriteByte('\n')
					needNL = false
				}
			}
		}
	}
	for i, o := range order {
		put(o.e.Lead, nil, false)
		put(o.text, o.rest, o.reparsed || o.e.numAt)
		if lastOfKind[o.kind] == i {
			putAdded(o.kind)
		}
	}
	for _, k := range addedKindsWithoutPlace(added, lastOfKind) {
		putAdded(k)
	}
	put(m.Tail, nil, false)
	return bw.Flush()
}

// outTable holds the module entities a plan writes, by entity index: a
// slice over the whole module for a full plan, a map of only the written
// ones for a sparse plan.
type outTable struct {
	dense  []*outEntity
	sparse map[int32]*outEntity
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
