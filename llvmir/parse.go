package llvmir

// maxErrors bounds how many errors one parse reports.
const maxErrors = 20

var topKeywords = map[string]bool{
	"define": true, "declare": true, "attributes": true, "target": true, "source_filename": true,
	"module": true, "uselistorder": true, "uselistorder_bb": true,
}

// isTopStart reports whether the current token can begin a top-level
// entity (or is the end of input).
func (p *parser) isTopStart() bool {
	switch p.tok.kind {
	case tEOF, tGlobal, tGlobalN, tLocal, tLocalN, tComdat, tMetaVar, tMetaID, tSummary:
		return true
	case tIdent:
		return topKeywords[p.text(p.tok)]
	}
	return false
}

func newModule(file string, src []byte) *Module {
	return &Module{
		File:      file,
		Src:       src,
		globals:   map[string]*Entity{},
		numbered:  map[int]*Entity{},
		mds:       map[int]*Entity{},
		namedMDs:  map[string]*Entity{},
		groups:    map[int]*Entity{},
		comdats:   map[string]*Entity{},
		types:     map[string]*Type{},
		maxMD:     -1,
		maxGroup:  -1,
		maxGlobal: -1,
	}
}

func parseModule(file string, src []byte, workers int) (*Module, error) {
	if len(src) >= parallelMin && workers > 1 {
		if m, ok := parseParallel(file, src, workers); ok {
			return withDefaults(m), nil
		}
	}
	m := newModule(file, src)
	p := &parser{m: m, file: file, src: src, lx: lexer{src: src, end: len(src)}, lines: &m.lines}
	p.parseTop()
	if len(p.errs) == 0 {
		p.checkRecursiveStructs()
	}
	if len(p.errs) == 0 {
		p.resolve()
	}
	if len(p.errs) == 0 && len(p.implicit) > 0 {
		// The intrinsics called without a declaration are declared at
		// the end of the module, and the module read again.
		if decls := p.implicitDeclarations(); len(decls) > 0 {
			text := append(append(append([]byte(nil), src...), '\n'), decls...)
			return parseModule(file, text, workers)
		}
	}
	if len(p.errs) > 0 {
		p.errs.Sort()
		if len(p.errs) > maxErrors {
			p.errs = p.errs[:maxErrors]
		}
		return nil, p.errs
	}
	return withDefaults(m), nil
}

// withDefaults gives a parsed module what its text may leave out.
func withDefaults(m *Module) *Module {
	if m.DataLayout == nil {
		m.DataLayout = defaultDataLayout()
	}
	return m
}

func (p *parser) addErr(e *Error) {
	p.errs = append(p.errs, e)
}

// parseTop splits the source into entities.
func (p *parser) parseTop() {
	m, src := p.m, p.src
	leadStart := 0
	for len(p.errs) < maxErrors {
		p.lx.pos = leadStart
		p.lx.skipSpace()
		start := p.lx.pos
		if start >= len(src) {
			m.Tail = src[leadStart:]
			return
		}
		e := &Entity{Index: len(m.Entities), Lead: src[leadStart:start], Off: start}
		p.refs, p.mdRefs = p.refs[:0], p.mdRefs[:0]
		p.selfAt, p.calleeAt, p.numAt = -1, -1, false
		p.groups = p.groups[:0]
		if err := p.guard(func() { p.parseEntity(e) }); err != nil {
			p.addErr(err)
			p.pending = nil
			leadStart = p.resync(start)
			continue
		}
		end := p.lineEnd(p.prevEnd)
		e.Text = src[start:end]
		if p.pending != nil {
			// A worker scans the body and completes the entity.
			p.sendPending()
			m.Entities = append(m.Entities, e)
			leadStart = end
			continue
		}
		p.record(e)
		m.Entities = append(m.Entities, e)
		leadStart = end
	}
}

// record gives e what scanning its text found: its @ and ! references,
// whether it holds an @N reference, and its attribute groups.
func (p *parser) record(e *Entity) {
	if len(p.refs) > 0 {
		e.refs = append([]rawRef(nil), p.refs...)
	}
	if len(p.mdRefs) > 0 {
		e.mdRefs = append([]rawMD(nil), p.mdRefs...)
	}
	e.numAt = e.numAt || p.numAt
	e.groups = p.entityGroups(e)
}

// entityGroups returns the attribute groups entity e references: those
// the scanner saw and those of its header, each once.
func (p *parser) entityGroups(e *Entity) []int32 {
	var hdr []int
	switch {
	case e.Func != nil:
		hdr = e.Func.AttrGroups
	case e.Var != nil:
		hdr = e.Var.AttrGroups
	}
	for _, g := range hdr {
		p.addGroup(int32(g))
	}
	if len(p.groups) == 0 {
		return nil
	}
	return append([]int32(nil), p.groups...)
}

// lineEnd extends an entity's end over trailing blanks and a comment up to
// and including the newline, unless another token follows on the line.
func (p *parser) lineEnd(end int) int {
	src := p.src
	i := end
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if i < len(src) && src[i] == ';' {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	if i >= len(src) {
		return len(src)
	}
	if src[i] == '\n' {
		return i + 1
	}
	return end
}

// resync skips from a failed entity to the next line that looks like the
// start of a top-level entity.
func (p *parser) resync(from int) int {
	src := p.src
	i := from
	for {
		for i < len(src) && src[i] != '\n' {
			i++
		}
		if i >= len(src) {
			return len(src)
		}
		i++
		if i < len(src) {
			switch c := src[i]; c {
			case '@', '%', '!', '$', '^':
				return i
			case 'd', 'a', 't', 's', 'm', 'u':
				j := i
				for j < len(src) && isIdent(src[j]) {
					j++
				}
				if topKeywords[str(src[i:j])] {
					return i
				}
			}
		}
	}
}

// parseEntity parses the entity starting at the current lexer position.
func (p *parser) parseEntity(e *Entity) {
	p.reset(p.lx.pos)
	t := p.tok
	switch t.kind {
	case tIdent:
		if p.parseKeywordEntity(e, p.text(t)) {
			return
		}
	case tLocal, tLocalN:
		p.parseTypeDef(e)
		return
	case tComdat:
		p.parseComdat(e)
		return
	case tGlobal, tGlobalN:
		p.parseGlobal(e)
		return
	case tMetaVar:
		p.parseNamedMD(e)
		return
	case tMetaID:
		p.parseMDNodeEntity(e)
		return
	case tSummary:
		e.Kind = KindSummary
		p.next()
		p.skipToTop()
		return
	}
	p.failTok("expected a top-level entity")
}

// parseKeywordEntity parses the entity that starts with keyword w, and
// reports whether w starts one.
func (p *parser) parseKeywordEntity(e *Entity, w string) bool {
	switch w {
	case "source_filename":
		p.next()
		p.expectPunct('=')
		e.Kind, e.Str = KindSourceFilename, p.expectString()
		p.m.SourceFilename = e.Str
	case "target":
		p.parseTarget(e)
	case "module":
		p.next()
		p.expectIdent("asm")
		e.Kind, e.Str = KindModuleAsm, p.expectString()
	case "define", "declare":
		p.parseFunction(e)
	case "attributes":
		p.parseAttrGroup(e)
	case "uselistorder", "uselistorder_bb":
		e.Kind = KindUseListOrder
		p.next()
		p.skipToTop()
	default:
		return false
	}
	return true
}

// parseTarget parses "target datalayout = …" or "target triple = …".
func (p *parser) parseTarget(e *Entity) {
	p.next()
	switch {
	case p.acceptIdent("datalayout"):
		p.expectPunct('=')
		at := p.tok.start
		e.Kind, e.Str = KindDataLayout, p.expectString()
		dl, err := ParseDataLayout(e.Str)
		if err != nil {
			p.fail(at, err.Error())
		}
		p.m.DataLayout = dl
	case p.acceptIdent("triple"):
		p.expectPunct('=')
		e.Kind, e.Str = KindTriple, p.expectString()
		p.m.Triple = e.Str
	default:
		p.failTok("expected 'datalayout' or 'triple'")
	}
}

// parseComdat parses a comdat definition "$name = comdat kind".
func (p *parser) parseComdat(e *Entity) {
	t := p.tok
	e.Kind, e.Name = KindComdat, p.name(t)
	p.next()
	p.expectPunct('=')
	p.expectIdent("comdat")
	if p.tok.kind != tIdent {
		p.failTok("expected a comdat selection kind")
	}
	switch sel := p.text(p.tok); sel {
	case "any", "exactmatch", "largest", "nodeduplicate", "noduplicates", "samesize":
		e.Comdat = &Comdat{Selection: sel}
	default:
		p.failTok("unknown comdat selection kind")
	}
	p.next()
	if p.m.comdats[e.Name] != nil {
		p.fail(t.start, "redefinition of comdat '$"+e.Name+"'")
	}
	p.m.comdats[e.Name] = e
}

// skipToTop consumes tokens (balanced) up to the next top-level start.
func (p *parser) skipToTop() {
	for !p.isTopStart() {
		if p.tok.kind == tPunct {
			switch p.src[p.tok.start] {
			case '(', '[', '{', '<':
				p.skipBalanced()
				continue
			}
		}
		p.next()
	}
}

func (p *parser) parseTypeDef(e *Entity) {
	t := p.tok
	e.Kind = KindTypeDef
	if t.kind == tLocalN {
		e.Name, e.Numbered, e.ID = str(p.src[t.start+1:t.end]), true, p.number(t)
	} else {
		e.Name = p.name(t)
	}
	p.next()
	p.expectPunct('=')
	p.expectIdent("type")
	nt := p.namedType(e.Name)
	if nt.defined {
		p.fail(t.start, "redefinition of type '%"+e.Name+"'")
	}
	nt.defined = true
	e.TypeDef = nt
	switch {
	case p.acceptIdent("opaque"):
		nt.Opaque = true
	case p.isPunct('{'):
		body := p.parseStructBody(false)
		nt.Fields, nt.Opaque = body.Fields, false
	case p.isPunct('<') && p.peekPunct('{'):
		p.next()
		body := p.parseStructBody(true)
		p.expectPunct('>')
		nt.Fields, nt.Packed, nt.Opaque = body.Fields, true, false
	default:
		// A non-struct named type is an alias of that type.
		at := p.parseType()
		switch reachesType(at, nt, map[*Type]bool{}, 1) {
		case reachYes:
			p.fail(t.start, "invalid recursive type '%"+e.Name+"'")
		case reachTooDeep:
			p.fail(t.start, "type '%"+e.Name+"' nested deeper than "+itoa(MaxNesting)+" levels")
		}
		if expandedSize(at, map[*Type]int{}) > maxAliasSize {
			p.fail(t.start, "type '%"+e.Name+"' is too large: it expands to more than "+itoa(maxAliasSize)+" types")
		}
		name := nt.Name
		*nt = *at
		if at.Kind == StructType {
			nt.Name = name
		}
		nt.defined = true
	}
}

// reachesType reports whether t mentions target, not looking inside named
// structs (reachYes), or that it nests deeper than MaxNesting
// (reachTooDeep): named types that alias other types nest without bound.
func reachesType(t, target *Type, seen map[*Type]bool, depth int) int {
	if t == target {
		return reachYes
	}
	if t == nil || seen[t] || (t.Kind == StructType && t.Name != "") {
		return reachNo
	}
	if depth > MaxNesting {
		return reachTooDeep
	}
	seen[t] = true
	if r := reachesType(t.Elem, target, seen, depth+1); r != reachNo {
		return r
	}
	if r := reachesType(t.Ret, target, seen, depth+1); r != reachNo {
		return r
	}
	for _, f := range t.Fields {
		if r := reachesType(f, target, seen, depth+1); r != reachNo {
			return r
		}
	}
	for _, f := range t.TargetTypes {
		if r := reachesType(f, target, seen, depth+1); r != reachNo {
			return r
		}
	}
	return reachNo
}

// maxAliasSize bounds the size of a named type that is not a struct: it
// is written out in full wherever it is used, so aliases of aliases used
// several times each could otherwise grow exponentially.
const maxAliasSize = 1 << 16

// expandedSize returns how many types t is made of, written out in full
// (named structs count as one), or a number above maxAliasSize.
func expandedSize(t *Type, memo map[*Type]int) int {
	if t == nil {
		return 0
	}
	if t.Kind == StructType && t.Name != "" {
		return 1
	}
	if n, ok := memo[t]; ok {
		return n
	}
	n := 1 + expandedSize(t.Elem, memo) + expandedSize(t.Ret, memo)
	for _, f := range t.Fields {
		n += expandedSize(f, memo)
	}
	for _, f := range t.TargetTypes {
		n += expandedSize(f, memo)
	}
	n = min(n, maxAliasSize+1)
	memo[t] = n
	return n
}

// The answers of reachesType.
const (
	reachNo = iota
	reachYes
	reachTooDeep
)

// checkRecursiveStructs reports structs that contain themselves by value
// (LLVM rejects them; their size would be infinite) and types nested by
// value deeper than MaxNesting through named structs (a chain of structs
// each holding the next), which the recursive walks over types (sizes,
// layouts) could not follow.
func (p *parser) checkRecursiveStructs() {
	const visiting = -1
	height := map[*Type]int{} // a named struct's nesting depth; visiting while on the path
	// visit returns t's nesting depth, or -1 for a recursive struct and
	// MaxNesting+1 for one nested too deeply; depth is t's distance from
	// the type definition being checked.
	var visit func(t *Type, depth int) int
	visit = func(t *Type, depth int) int {
		if depth > MaxNesting {
			return MaxNesting + 1
		}
		switch t.Kind {
		case ArrayType, VectorType:
			h := visit(t.Elem, depth+1)
			if h < 0 || h > MaxNesting {
				return h
			}
			return h + 1
		case StructType:
			if t.Name != "" {
				switch h, ok := height[t]; {
				case ok && h == visiting:
					return -1
				case ok:
					return h
				}
				height[t] = visiting
			}
			h := 0
			for _, f := range t.Fields {
				fh := visit(f, depth+1)
				if fh < 0 || fh > MaxNesting {
					return fh
				}
				h = max(h, fh)
			}
			h++
			if t.Name != "" {
				height[t] = h
			}
			return h
		}
		return 1
	}
	for _, e := range p.m.Entities {
		if e.Kind != KindTypeDef {
			continue
		}
		switch h := visit(e.TypeDef, 1); {
		case h < 0:
			p.addErr(p.errorAt(e.Off, "invalid recursive type '%"+e.Name+"'"))
			return
		case h > MaxNesting:
			p.addErr(p.errorAt(e.Off, "type '%"+e.Name+"' nested deeper than "+itoa(MaxNesting)+" levels"))
			return
		}
	}
}

// peekPunct reports whether the token after the current one is the
// punctuation c.
func (p *parser) peekPunct(c byte) bool {
	st := p.save()
	p.next()
	ok := p.isPunct(c)
	p.restore(st)
	return ok
}

func (p *parser) parseAttrGroup(e *Entity) {
	p.expectIdent("attributes")
	if p.tok.kind != tAttrID {
		p.failTok("expected an attribute group id")
	}
	at := p.tok.start
	e.Kind, e.ID, e.Numbered = KindAttrGroup, p.number(p.tok), true
	e.Name = itoa(e.ID)
	p.next()
	p.expectPunct('=')
	p.expectPunct('{')
	g := &AttrGroup{}
	for !p.isPunct('}') {
		g.Attrs = append(g.Attrs, p.parseAttr())
	}
	p.next()
	e.Group = g
	if p.m.groups[e.ID] != nil {
		p.fail(at, "redefinition of attribute group #"+e.Name)
	}
	p.m.groups[e.ID] = e
	if e.ID > p.m.maxGroup {
		p.m.maxGroup = e.ID
	}
}
