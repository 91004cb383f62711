package llvmir

import (
	"strconv"

	"github.com/sycbuild/sycbuild/bitcode"
)

// bcMD is one metadata: a string, a value, a node, or a function-local
// value or argument list. Module metadata is numbered when the whole
// module is read: strings first (the reader needs them before any node
// names them), then values, then nodes.
type bcMD struct {
	id       int
	kind     byte
	s        string
	t        *Type
	c        *bcConst
	l        *bcLocal
	code     uint64
	fields   []bcMDF
	distinct bool
	ent      *Entity // a numbered node, parsed when its turn comes
	done     bool
	off      int
}

const (
	mdStr = iota
	mdVal
	mdNode
	mdLocalVal // LocalAsMetadata: written in the function's block
	mdArgList  // DIArgList: written in the function's block
)

// bcMDF is one field of a node record: a number, or a reference written
// as its id (ref1 false) or id+1 with 0 for none (ref1 true).
type bcMDF struct {
	v    uint64
	ref  *bcMD
	isMD bool
	ref1 bool
}

type bcMeta struct {
	a       *bcw
	strs    map[string]*bcMD
	vals    map[*bcConst]*bcMD
	nums    map[*Entity]*bcMD
	all     []*bcMD // module metadata in order of creation
	queue   []*bcMD
	kinds   bcNames
	nameds  []bcNamedMD
	globals [][]uint64 // GLOBAL_DECL_ATTACHMENT: [value, kind, md...] with md as *bcMD in gmds
	gmds    [][]*bcMD
	count   int // module metadata numbered
}

type bcNamedMD struct {
	name string
	ops  []*bcMD
}

func (m *bcMeta) init(a *bcw) {
	m.a = a
	m.strs = map[string]*bcMD{}
	m.vals = map[*bcConst]*bcMD{}
	m.nums = map[*Entity]*bcMD{}
}

func (m *bcMeta) kind(name string) uint64 { return uint64(m.kinds.id(name)) }

func (m *bcMeta) str(s string) *bcMD {
	if x, ok := m.strs[s]; ok {
		return x
	}
	x := &bcMD{kind: mdStr, s: s, done: true}
	m.strs[s] = x
	m.all = append(m.all, x)
	return x
}

func (m *bcMeta) value(c *bcConst, t *Type) *bcMD {
	if x, ok := m.vals[c]; ok {
		return x
	}
	m.a.tys.id(t, m.a.p.tok.start)
	x := &bcMD{kind: mdVal, c: c, t: t, done: true}
	m.vals[c] = x
	m.all = append(m.all, x)
	return x
}

// numbered returns the node !N, parsed later.
func (m *bcMeta) numbered(off, n int) *bcMD {
	e := m.a.m.MD(n)
	if e == nil {
		m.a.p.fail(off, "use of undefined metadata '!"+itoa(n)+"'")
	}
	if x, ok := m.nums[e]; ok {
		return x
	}
	x := &bcMD{kind: mdNode, ent: e, off: e.Off}
	m.nums[e] = x
	m.all = append(m.all, x)
	m.queue = append(m.queue, x)
	return x
}

func (m *bcMeta) node() *bcMD {
	x := &bcMD{kind: mdNode, done: true}
	m.all = append(m.all, x)
	return x
}

// parse parses a metadata operand at the current token: !"s", !N, !{…},
// !DIxxx(…), null (nil), or a typed value. f is the function for local
// values (nil at module level).
func (m *bcMeta) parse(f *bcFunc) *bcMD {
	a, p := m.a, m.a.p
	tok := p.tok
	switch tok.kind {
	case tMetaStr:
		p.next()
		return m.str(p.stringVal(tok))
	case tMetaID:
		p.next()
		return m.numbered(tok.start, p.number(tok))
	case tExcl:
		p.next()
		x := m.node()
		m.tuple(x, f)
		return x
	case tMetaVar:
		if p.name(tok) == "DIArgList" {
			if f == nil {
				a.unsupported(tok.start, "DIArgList outside a function")
			}
			p.next()
			x := &bcMD{kind: mdArgList, done: true}
			p.expectPunct('(')
			for !p.isPunct(')') {
				x.fields = append(x.fields, bcMDF{ref: m.parse(f), isMD: true})
				if !p.acceptPunct(',') {
					break
				}
			}
			p.expectPunct(')')
			f.fnMD = append(f.fnMD, x)
			return x
		}
		x := m.node()
		m.special(x, f)
		return x
	case tIdent:
		if p.text(tok) == "null" {
			p.next()
			return nil
		}
		if p.text(tok) == "distinct" {
			p.next()
			x := m.parse(f)
			if x != nil {
				x.distinct = true
			}
			return x
		}
	}
	t := p.parseType()
	if p.tok.kind == tLocal || p.tok.kind == tLocalN {
		if f == nil {
			p.failTok("a local value in module metadata")
		}
		a.tys.id(t, p.tok.start)
		l := f.local(a, p.tok)
		p.next()
		x := &bcMD{kind: mdLocalVal, t: t, l: l, done: true}
		f.fnMD = append(f.fnMD, x)
		return x
	}
	c := a.consts.parse(t)
	return m.value(c, t)
}

// operand parses the operand of a metadata-typed argument.
func (m *bcMeta) operand(f *bcFunc) *bcMD {
	at := m.a.p.tok.start
	x := m.parse(f)
	if x == nil {
		m.a.p.fail(at, "null is not a metadata value")
	}
	return x
}

// tuple parses "{ ops }" after '!'.
func (m *bcMeta) tuple(x *bcMD, f *bcFunc) {
	p := m.a.p
	p.expectPunct('{')
	x.code = bitcode.MetadataNode
	for !p.isPunct('}') {
		x.fields = append(x.fields, bcMDF{ref: m.parse(f), isMD: true, ref1: true})
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct('}')
}

// finish parses the numbered nodes referenced so far (and those they
// reference), then numbers all module metadata.
func (m *bcMeta) finish() {
	p := m.a.p
	for len(m.queue) > 0 {
		x := m.queue[0]
		m.queue = m.queue[1:]
		if x.ent == nil { // an inline attachment
			p.reset(x.off) // at its '!'
			if p.tok.kind == tExcl {
				p.next()
				m.tuple(x, nil)
			} else {
				m.special(x, nil)
			}
			x.done = true
			continue
		}
		p.reset(x.ent.Off)
		p.next() // !N
		p.expectPunct('=')
		if p.acceptIdent("distinct") {
			x.distinct = true
		}
		switch p.tok.kind {
		case tExcl:
			p.next()
			m.tuple(x, nil)
		case tMetaVar:
			m.special(x, nil)
		default:
			y := m.parse(nil)
			// !N = !"s" and other aliases of a single operand are
			// written as that operand.
			*x = bcMD{kind: mdNode, code: bitcode.MetadataNode, fields: []bcMDF{{ref: y, isMD: true, ref1: true}}}
			m.a.unsupported(x.ent.Off, "this metadata definition")
		}
		x.done = true
	}
	id := 0
	for _, k := range []byte{mdStr, mdVal, mdNode} {
		for _, x := range m.all {
			if x.kind == k {
				x.id = id
				id++
			}
		}
	}
	m.count = id
}

// named reads "!name = !{…}".
func (m *bcMeta) named(e *Entity) {
	p := m.a.p
	p.reset(e.Off)
	p.next()
	p.expectPunct('=')
	if p.tok.kind != tExcl {
		p.failTok("expected '!{'")
	}
	p.next()
	p.expectPunct('{')
	n := bcNamedMD{name: e.Name}
	for !p.isPunct('}') {
		if p.tok.kind != tMetaID {
			p.failTok("expected a metadata node number")
		}
		n.ops = append(n.ops, m.numbered(p.tok.start, p.number(p.tok)))
		p.next()
		if !p.acceptPunct(',') {
			break
		}
	}
	m.nameds = append(m.nameds, n)
}

// attachment returns the node an attachment names. An inline node
// (!kind !{…}) is a node of its own, read from its text with the numbered
// nodes (finish).
func (m *bcMeta) attachment(at Attachment, off int) *bcMD {
	if at.refID >= 0 {
		return m.numbered(off, int(at.refID))
	}
	x := &bcMD{kind: mdNode, off: int(at.at)}
	m.all = append(m.all, x)
	m.queue = append(m.queue, x)
	return x
}

func (m *bcMeta) globalAttachments(e *Entity, atts []Attachment) {
	if len(atts) == 0 {
		return
	}
	rec := []uint64{uint64(m.a.gvalID[e])}
	var mds []*bcMD
	for _, at := range atts {
		rec = append(rec, m.kind(at.Kind))
		mds = append(mds, m.attachment(at, e.Off))
	}
	m.globals = append(m.globals, rec)
	m.gmds = append(m.gmds, mds)
}

func (m *bcMeta) writeKinds() {
	if len(m.kinds.names) == 0 {
		return
	}
	s := m.a.s
	s.EnterBlock(bitcode.MetadataKindBlockID, 3)
	for i, n := range m.kinds.names {
		s.Record(bitcode.MetadataKind, append([]uint64{uint64(i)}, bcChars(n)...)...)
	}
	s.ExitBlock()
}

func (m *bcMeta) fieldVals(x *bcMD) []uint64 {
	out := make([]uint64, 0, len(x.fields)+1)
	for _, f := range x.fields {
		switch {
		case !f.isMD:
			out = append(out, f.v)
		case f.ref == nil:
			out = append(out, 0)
		case f.ref1:
			out = append(out, uint64(f.ref.id)+1)
		default:
			out = append(out, uint64(f.ref.id))
		}
	}
	return out
}

func (m *bcMeta) writeModule() {
	a := m.a
	s := a.s
	if m.count == 0 && len(m.nameds) == 0 && len(m.globals) == 0 {
		return
	}
	s.EnterBlock(bitcode.MetadataBlockID, 3)
	for _, k := range []byte{mdStr, mdVal, mdNode} {
		for _, x := range m.all {
			if x.kind != k {
				continue
			}
			switch k {
			case mdStr:
				s.Record(bitcode.MetadataStringOld, bcChars(x.s)...)
			case mdVal:
				s.Record(bitcode.MetadataValue, a.tys.ref(x.t), uint64(a.consts.id(x.c)))
			default:
				code := x.code
				vals := m.fieldVals(x)
				if code == bitcode.MetadataNode && x.distinct {
					code = bitcode.MetadataDistinctNode
				} else if code != bitcode.MetadataNode && x.distinct && len(vals) > 0 {
					vals[0] |= 1
				}
				s.Record(code, vals...)
			}
		}
	}
	for _, n := range m.nameds {
		s.Record(bitcode.MetadataName, bcChars(n.name)...)
		ids := make([]uint64, len(n.ops))
		for i, x := range n.ops {
			ids[i] = uint64(x.id)
		}
		s.Record(bitcode.MetadataNamedNode, ids...)
	}
	for i, g := range m.globals {
		rec := []uint64{g[0]}
		for j, k := range g[1:] {
			rec = append(rec, k, uint64(m.gmds[i][j].id))
		}
		s.Record(bitcode.MetadataGlobalDeclAttachment, rec...)
	}
	s.ExitBlock()
}

// writeFunction numbers and writes a function's local metadata (base is
// the value number of its first argument).
func (m *bcMeta) writeFunction(f *bcFunc, base int) {
	if len(f.fnMD) == 0 {
		return
	}
	a := m.a
	s := a.s
	for i, x := range f.fnMD {
		x.id = m.count + i
	}
	s.EnterBlock(bitcode.MetadataBlockID, 3)
	for _, x := range f.fnMD {
		switch x.kind {
		case mdLocalVal:
			if !x.l.defined {
				a.p.fail(x.l.use, "use of undefined value '%"+x.l.name+"'")
			}
			s.Record(bitcode.MetadataValue, a.tys.ref(x.t), uint64(base+x.l.index))
		case mdArgList:
			ids := make([]uint64, len(x.fields))
			for i, fd := range x.fields {
				ids[i] = uint64(fd.ref.id)
			}
			s.Record(bitcode.MetadataArgList, ids...)
		}
	}
	s.ExitBlock()
}

// loc returns a DEBUG_LOC record's fields for a DILocation node.
func (m *bcMeta) loc(x *bcMD) []uint64 {
	if x.code != bitcode.MetadataLocation {
		m.a.p.fail(x.off, "!dbg attachment is not a DILocation")
	}
	v := m.fieldVals(x)
	// [distinct, line, column, scope, inlinedAt+1, implicit, ...] →
	// [line, column, scope+1, inlinedAt+1, implicit, ...]
	out := []uint64{v[1], v[2], v[3] + 1, v[4]}
	out = append(out, v[5:]...)
	return out
}

// debugRecord parses "#dbg_value(…)" and the other debug records.
func (a *bcw) debugRecord(f *bcFunc) bcDbgRecord {
	p := a.p
	at := p.tok.start
	if a.gen < 19 {
		a.unsupported(at, "debug records before LLVM 19")
	}
	name := p.text(p.tok)
	p.next()
	p.expectPunct('(')
	var ops []*bcMD
	for !p.isPunct(')') {
		x := a.md.parse(f)
		if x == nil {
			p.fail(at, "null in a debug record")
		}
		if x.kind == mdNode && x.code == bitcode.MetadataNode && len(x.fields) == 0 {
			// !{}: an empty location
		}
		ops = append(ops, x)
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
	r := bcDbgRecord{}
	switch name {
	case "#dbg_value", "#dbg_declare":
		if len(ops) != 4 {
			p.fail(at, "expected 4 operands")
		}
		r.code = bitcode.FuncCodeDebugRecordValue
		if name == "#dbg_declare" {
			r.code = bitcode.FuncCodeDebugRecordDeclare
		}
		r.fields = []*bcMD{ops[3], ops[1], ops[2], ops[0]}
	case "#dbg_assign":
		if len(ops) != 7 {
			p.fail(at, "expected 7 operands")
		}
		r.code = bitcode.FuncCodeDebugRecordAssign
		r.fields = []*bcMD{ops[6], ops[1], ops[2], ops[0], ops[3], ops[5], ops[4]}
	case "#dbg_label":
		if len(ops) != 2 {
			p.fail(at, "expected 2 operands")
		}
		r.code = bitcode.FuncCodeDebugRecordLabel
		r.fields = []*bcMD{ops[1], ops[0]}
	default:
		a.unsupported(at, "the debug record "+name)
	}
	return r
}

func bcParseUint(s string) (uint64, bool) {
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}
