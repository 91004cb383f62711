package llvmir

import (
	"strconv"
	"sync"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// bcFunc is a function body being assembled: its blocks, local values and
// instructions. Operands refer to locals through bcLocal, numbered when
// the body ends, so that forward references (phi, blocks) resolve.
type bcFunc struct {
	e, ent  *Entity
	nargs   int
	nums    []*bcLocal  // numbered values (%N) by number
	byName  *bcLocalTab // named values by their decoded name
	order   []*bcLocal  // arguments, then results, in value order
	blocks  map[string]int
	bbRefs  []bcBBRef
	bnames  []string // block names ("" for unnamed), by index
	insts   []*bcInst
	nextNum int        // the next unnamed value number
	made    int        // locals made by local (arguments aside): all defined when order holds as many
	fnMD    []*bcMD    // function-local metadata
	attach  [][]uint64 // the function's own attachments, [kind, md]
	attMD   []*bcMD

	// What the body asked the module's tables, and the answers
	// (bcw_bodies.go); fields of kind fDep and operands with dep hold an
	// index into them.
	deps      []bcDep
	extras    []bcDepExtra
	res       []bcDepRes
	depBase   int     // where the body's deps begin in bcw.res (and bcw.deps) while it is parsed
	bodyStart int     // offset of the body's "{" in the module's text
	noCache   bool    // the parse did what deps do not cover
	kept      *bcBody // the body, when another module's parse is written
}

// bcLocal is an argument or instruction result.
type bcLocal struct {
	name    string
	named   bool
	index   int // in the function's values (arguments first); -1 until defined
	use     int // offset of the first use, for errors
	defined bool
}

// bcField is one field of an instruction record, resolved when written.
type bcField struct {
	kind byte
	v    uint64 // the literal; for fBB the index in the function's bbRefs
	op   *bcOp
	md   *bcMD
}

// bcBBRef is a block named by an instruction, found when the body is
// written (a block may be used before it is defined).
type bcBBRef struct {
	name string
	at   int
}

const (
	fLit  = iota // v
	fVal         // relative value
	fVT          // relative value, and its type when a forward reference
	fSVal        // signed relative value (phi)
	fAbs         // absolute value number
	fBB          // block index
	fMD          // metadata number
	fMD1         // metadata number + 1 (0 for none)
	fDep         // the answer to dep v (a type's or an attribute list's number)
)

// bcOp is an operand: a local, a constant (the answer to dep-1) or
// metadata.
type bcOp struct {
	t    *Type
	l    *bcLocal
	md   *bcMD
	dep  int32
	tdep int32 // a local's: the dep of its type, +1
}

// bcInst is one instruction: its record, what precedes it (operand
// bundles), what follows it (debug location, debug records) and its
// attachments.
type bcInst struct {
	code   uint64
	fields []bcField
	result *bcLocal
	loc    int32       // the dep of the !dbg node, +1 (0 for none)
	more   *bcInstMore // nil for most
}

// bcInstMore is what few instructions have: operand bundles, debug
// records, attachments other than !dbg. Kept apart, it leaves bcInst
// small: a module's bodies hold millions, each cleared when handed out.
type bcInstMore struct {
	bundles [][]bcField
	records []bcDbgRecord
	attach  []bcAttach
}

// extra returns in.more, made on first use.
func (in *bcInst) extra() *bcInstMore {
	if in.more == nil {
		in.more = new(bcInstMore)
	}
	return in.more
}

// bcAttach is an instruction's attachment: the deps of its kind and node.
type bcAttach struct {
	kind, md int32
}

type bcDbgRecord struct {
	code   uint64
	fields []*bcMD
}

func (f *bcFunc) local(a *bcw, tok token) *bcLocal {
	// Numbered values are found by number, named ones by their decoded
	// name (a slice of the source unless escaped): no key is built.
	if tok.kind == tLocalN {
		n, ok := bcLocalNum(a.p.src[tok.start+1 : tok.end])
		if !ok {
			a.p.fail(tok.start, "use of undefined value '"+a.p.text(tok)+"'")
		}
		for n >= len(f.nums) {
			f.nums = append(f.nums, nil)
		}
		l := f.nums[n]
		if l == nil {
			l = a.newLocal()
			*l = bcLocal{name: str(a.p.src[tok.start+1 : tok.end]), index: -1, use: tok.start}
			f.nums[n] = l
			f.made++
		}
		return l
	}
	name := a.p.name(tok)
	slot := f.byName.slot(name)
	if *slot == nil {
		l := a.newLocal()
		*l = bcLocal{name: name, named: true, index: -1, use: tok.start}
		*slot = l
		f.made++
	}
	return *slot
}

// bcLocalNum parses the number of %N; numbers beyond any function's
// values are refused.
func bcLocalNum(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// newLocal, newInst and newOp allocate from slabs: a module's bodies
// hold millions of them, and one allocation each made most of the
// writer's garbage.
func (a *bcw) newLocal() *bcLocal {
	if len(a.localSlab) == 0 {
		a.localSlab = a.slabs.locals.take(&a.localN, 1)
	}
	l := &a.localSlab[0]
	a.localSlab = a.localSlab[1:]
	return l
}

func (a *bcw) newInst() *bcInst {
	if len(a.instSlab) == 0 {
		a.instSlab = a.slabs.insts.take(&a.instN, 1)
	}
	in := &a.instSlab[0]
	a.instSlab = a.instSlab[1:]
	*in = bcInst{} // a slab used before is not cleared as a whole
	return in
}

func (a *bcw) newOp(op bcOp) *bcOp {
	if len(a.opSlab) == 0 {
		a.opSlab = a.slabs.ops.take(&a.opN, 1)
	}
	o := &a.opSlab[0]
	a.opSlab = a.opSlab[1:]
	*o = op
	return o
}

// bcSlabSize is the size of the next slab after one of cur, at least
// need: slabs double from 64 to 4096, so that a small module allocates
// (and clears) little.
func bcSlabSize(cur, need int) int {
	n := min(max(cur*2, 64), 4096)
	return max(n, need)
}

// bcSlabs are the slabs of one writer, kept for the next: the driver's
// line writes a thousand modules, and slabs made afresh for each were
// most of its garbage. A slab handed out again is not cleared: a module
// may use little of it, and every element is written whole when it is
// handed out (newInst clears its instruction; locals, operands and
// fields are assigned).
type bcSlabs struct {
	locals slabList[bcLocal]
	insts  slabList[bcInst]
	ops    slabList[bcOp]
	fields slabList[bcField]
	deps   []bcDep // bcw.deps and bcw.res, emptied
	res    []bcDepRes
}

// bcSlabPool holds the slabs of writers that are done.
var bcSlabPool = sync.Pool{New: func() any { return new(bcSlabs) }}

// release makes every slab free for the next writer.
func (s *bcSlabs) release() {
	s.locals.release()
	s.insts.release()
	s.ops.release()
	s.fields.release()
}

// slabList is the slabs of one kind: those handed out and those free.
type slabList[T any] struct {
	used, free [][]T
}

// take returns a slab of the next size after *n (at least need), a free
// one when one is large enough.
func (l *slabList[T]) take(n *int, need int) []T {
	*n = bcSlabSize(*n, need)
	for len(l.free) > 0 {
		s := l.free[len(l.free)-1]
		l.free = l.free[:len(l.free)-1]
		if cap(s) >= *n {
			s = s[:cap(s)]
			l.used = append(l.used, s)
			return s
		}
	}
	s := make([]T, *n)
	l.used = append(l.used, s)
	return s
}

func (l *slabList[T]) release() {
	l.free = append(l.free, l.used...)
	clear(l.used)
	l.used = l.used[:0]
}

// fieldList copies fs into slab fields with room for more.
func (a *bcw) fieldList(room int, fs ...bcField) []bcField {
	out := a.newFields(len(fs), len(fs)+room)
	copy(out, fs)
	return out
}

// newFields returns n fields with room for c, from a slab (appending
// past c copies them out).
func (a *bcw) newFields(n, c int) []bcField {
	if len(a.fieldSlab) < c {
		a.fieldSlab = a.slabs.fields.take(&a.fieldN, c)
	}
	fs := a.fieldSlab[:n:c]
	a.fieldSlab = a.fieldSlab[c:]
	return fs
}

// define makes l the next value of the function.
func (f *bcFunc) define(a *bcw, l *bcLocal, at int) {
	if l.defined {
		a.p.fail(at, "multiple definition of local value named '"+l.name+"'")
	}
	if !l.named {
		if n, err := strconv.Atoi(l.name); err != nil || n != f.nextNum {
			a.p.fail(at, "instruction expected to be numbered '%"+strconv.Itoa(f.nextNum)+"'")
		}
		f.nextNum++
	}
	l.defined = true
	l.index = len(f.order)
	f.order = append(f.order, l)
}

func bcLabelName(a *bcw, tok token) string {
	b := a.p.src[tok.start : tok.end-1]
	if len(b) > 0 && b[0] == '"' {
		return unescape(b[1 : len(b)-1])
	}
	return string(b)
}

func (f *bcFunc) blockRef(a *bcw) bcField {
	p := a.p
	p.expectIdent("label")
	tok := p.tok
	if tok.kind != tLocal && tok.kind != tLocalN {
		p.failTok("expected a basic block")
	}
	p.next()
	name := a.p.text(tok)[1:]
	if tok.kind == tLocal {
		name = "%" + p.name(tok)
	}
	return f.bbRef(name, tok.start)
}

func (f *bcFunc) bbRef(name string, at int) bcField {
	f.bbRefs = append(f.bbRefs, bcBBRef{name, at})
	return bcField{kind: fBB, v: uint64(len(f.bbRefs) - 1)}
}

// blockIndex returns the index of a block of fn named by tok (for
// blockaddress).
func (a *bcw) blockIndex(fn *Entity, tok token) int {
	for _, f := range a.funcs {
		if f.e == fn {
			name := a.p.text(tok)[1:]
			if tok.kind == tLocal {
				name = "%" + a.p.name(tok)
			}
			if i, ok := f.blocks[name]; ok {
				return i
			}
		}
	}
	a.p.fail(tok.start, "blockaddress of an unknown block")
	return 0
}

// operand parses a value of type t.
func (f *bcFunc) operand(a *bcw, t *Type) *bcOp {
	p := a.p
	if t.Kind == MetadataType {
		f.noCache = true
		return a.newOp(bcOp{t: t, md: a.md.operand(f)})
	}
	switch p.tok.kind {
	case tLocal, tLocalN:
		// The type is in the table before it is written: a forward
		// reference writes it.
		td := f.typeDep(a, t, p.tok.start)
		l := f.local(a, p.tok)
		p.next()
		return a.newOp(bcOp{t: t, l: l, tdep: td + 1})
	}
	return a.newOp(bcOp{t: t, dep: f.constDep(a, t) + 1})
}

func (f *bcFunc) typedOperand(a *bcw) *bcOp {
	t := a.p.parseType()
	return f.operand(a, t)
}

func vt(op *bcOp) bcField  { return bcField{kind: fVT, op: op} }
func val(op *bcOp) bcField { return bcField{kind: fVal, op: op} }
func lit(v uint64) bcField { return bcField{kind: fLit, v: v} }

// parseBody reads a function's body into instructions.
func (a *bcw) parseBody(f *bcFunc) {
	p := a.p
	fn := f.e.Func
	a.startBody(f)
	f.bodyStart = int(fn.body.Start)
	a.cur, f.depBase = f, len(a.res)
	if a.asked == nil {
		a.asked = map[*Type]int32{}
	}
	clear(a.asked)
	a.lastAsked = nil
	defer func() { a.cur = nil }()
	p.reset(int(fn.body.Start))
	p.expectPunct('{')
	var pending []bcDbgRecord
	for !p.isPunct('}') {
		if p.tok.kind == tLabel {
			a.blockLabel(f)
			continue
		}
		if len(f.bnames) == 0 {
			f.newBlock(a, strconv.Itoa(f.nextNum), "", p.tok.start)
			f.nextNum++
		}
		if p.tok.kind == tHashIdent {
			f.noCache = true
			pending = append(pending, a.debugRecord(f))
			continue
		}
		if p.isIdent("uselistorder") || p.isIdent("uselistorder_bb") {
			a.skipUseListOrder()
			continue
		}
		in := a.instruction(f)
		if len(pending) > 0 {
			in.extra().records = pending
			pending = nil
		}
		f.insts = append(f.insts, in)
	}
	if len(pending) > 0 {
		p.fail(p.tok.start, "debug records must precede an instruction")
	}
	a.checkDefined(f)
	f.endDeps(a)
	a.nums = f.nums[:0]
	f.nums, f.byName = nil, nil
}

// startBody readies f's name tables and defines its arguments and
// attachments.
func (a *bcw) startBody(f *bcFunc) {
	fn := f.e.Func
	// The name table is the writer's, emptied for each body: only
	// parsing needs it.
	a.byName.reset()
	f.byName = &a.byName
	f.nums = a.nums[:0]
	f.blocks = map[string]int{}
	for _, prm := range fn.Params {
		l := a.newLocal()
		if prm.Name == "" || isDigits(prm.Name) {
			*l = bcLocal{name: strconv.Itoa(f.nextNum), index: -1}
			f.nums = append(f.nums, l)
		} else {
			*l = bcLocal{name: prm.Name, named: true, index: -1}
			*f.byName.slot(prm.Name) = l
		}
		f.define(a, l, f.e.Off)
	}
	f.nargs = len(fn.Params)
	a.funcAttachments(f)
}

// funcAttachments numbers the function's own attachments (its header's).
func (a *bcw) funcAttachments(f *bcFunc) {
	for _, at := range f.e.Func.Attachments {
		f.attach = append(f.attach, nil)
		f.attMD = append(f.attMD, a.md.attachment(at, f.e.Off))
		f.attach[len(f.attach)-1] = []uint64{a.md.kind(at.Kind)}
	}
}

// blockLabel parses a block's label and starts the block; a numbered label
// takes the next value number.
func (a *bcw) blockLabel(f *bcFunc) {
	p := a.p
	name := bcLabelName(a, p.tok)
	key := "%" + name
	if isDigits(name) {
		if n, _ := strconv.Atoi(name); n != f.nextNum {
			p.fail(p.tok.start, "label expected to be numbered '"+strconv.Itoa(f.nextNum)+"'")
		}
		f.nextNum++
		key = name
		name = ""
	}
	f.newBlock(a, key, name, p.tok.start)
	p.next()
}

// skipUseListOrder skips a uselistorder or uselistorder_bb directive:
// left out, as at module level.
func (a *bcw) skipUseListOrder() {
	p := a.p
	bb := p.isIdent("uselistorder_bb")
	p.next()
	if bb {
		p.next()
		p.expectPunct(',')
		p.next()
	} else {
		p.parseType()
		p.skipValue()
	}
	p.expectPunct(',')
	if !p.isPunct('{') {
		p.failTok("expected '{'")
	}
	p.skipBalanced()
}

// checkDefined fails on the first value of f used in the text but never
// defined.
func (a *bcw) checkDefined(f *bcFunc) {
	if f.made == len(f.order)-f.nargs {
		return // every local is defined
	}
	var undef *bcLocal
	for _, l := range f.nums {
		if l != nil && !l.defined && (undef == nil || l.use < undef.use) {
			undef = l
		}
	}
	f.byName.each(func(l *bcLocal) {
		if !l.defined && (undef == nil || l.use < undef.use) {
			if _, ok := f.blocks["%"+l.name]; !ok {
				undef = l
			}
		}
	})
	if undef != nil {
		a.p.fail(undef.use, "use of undefined value '%"+undef.name+"'")
	}
}

func (f *bcFunc) newBlock(a *bcw, key, name string, at int) {
	if _, dup := f.blocks[key]; dup {
		a.p.fail(at, "redefinition of basic block")
	}
	f.blocks[key] = len(f.bnames)
	f.bnames = append(f.bnames, name)
}

var bcOrderings = map[string]uint64{"unordered": 1, "monotonic": 2, "acquire": 3, "release": 4, "acq_rel": 5, "seq_cst": 6}

var bcRMWOps = map[string]uint64{
	"xchg": 0, "add": 1, "sub": 2, "and": 3, "nand": 4, "or": 5, "xor": 6, "max": 7, "min": 8, "umax": 9,
	"umin": 10, "fadd": 11, "fsub": 12, "fmax": 13, "fmin": 14, "uinc_wrap": 15, "udec_wrap": 16,
	"usub_cond": 17, "usub_sat": 18, "fmaximum": 19, "fminimum": 20,
}

// scope parses an optional syncscope("name") and returns its id.
func (a *bcw) scope() uint64 {
	p := a.p
	if !p.acceptIdent("syncscope") {
		return 1 // system
	}
	if a.cur != nil {
		a.cur.noCache = true // the scope's number is the module's
	}
	p.expectPunct('(')
	s := p.expectString()
	p.expectPunct(')')
	return uint64(a.scopes.id(s))
}

func (a *bcw) ordering() uint64 {
	p := a.p
	o, ok := bcOrderings[p.text(p.tok)]
	if !ok || p.tok.kind != tIdent {
		p.failTok("expected an atomic ordering")
	}
	p.next()
	return o
}

// alignTail parses ", align N" at the current token, if present.
func (a *bcw) alignTail(in *bcInst) uint64 {
	p := a.p
	if p.isPunct(',') {
		st := p.save()
		p.next()
		if p.acceptIdent("align") {
			at := p.tok.start
			return bcAlign(at, a, p.expectUint("alignment"))
		}
		p.restore(st)
	}
	return 0
}

// instruction parses one instruction and its trailing attachments.
func (a *bcw) instruction(f *bcFunc) *bcInst {
	p := a.p
	in := a.newInst()
	start := p.tok.start
	if p.tok.kind == tLocal || p.tok.kind == tLocalN {
		in.result = f.local(a, p.tok)
		p.next()
		p.expectPunct('=')
	}
	if p.tok.kind != tIdent {
		p.failTok("expected an instruction opcode")
	}
	op := p.text(p.tok)
	opAt := p.tok.start
	p.next()
	a.instFields(f, in, op, opAt)
	return a.finishInst(f, in, start)
}

// finishInst parses the attachments after an instruction and defines its
// result.
func (a *bcw) finishInst(f *bcFunc, in *bcInst, start int) *bcInst {
	p := a.p
	for p.isPunct(',') {
		p.next()
		if p.tok.kind != tMetaVar {
			p.failTok("expected a metadata attachment")
		}
		a.attachmentTail(f, in)
	}
	if in.result != nil {
		f.define(a, in.result, start)
	}
	return in
}

// attachmentTail parses one "!kind !N" of an instruction.
func (a *bcw) attachmentTail(f *bcFunc, in *bcInst) {
	p := a.p
	at := p.tok.start
	att := p.parseAttachment()
	kind, node := f.attachDep(a, att, at)
	if att.Kind == "dbg" {
		in.loc = node + 1
		return
	}
	m := in.extra()
	m.attach = append(m.attach, bcAttach{kind: kind, md: node})
}

// callee parses the return attributes, type and callee of a call or
// invoke and returns the function type, the callee and the return
// attributes.
func (a *bcw) calleeAndArgs(f *bcFunc, opAt int) (*Type, *bcOp, Attrs, []*bcOp, []bcSlot) {
	p := a.p
	var ret Attrs
	for (p.tok.kind == tIdent && !isTypeKeyword(p.bytes(p.tok)) && !p.isIdent("addrspace")) || p.tok.kind == tString {
		ret = append(ret, p.parseAttr())
	}
	as := 0
	if p.isIdent("addrspace") {
		as = int(p.parseAddrSpace())
	}
	t := p.parseType()
	var ft *Type
	if t.Kind == FuncType {
		ft = t
	}
	// The callee's type may depend on the arguments (a typed pointer to
	// the function type, inline assembly's function type): read them
	// first, then come back to the callee.
	save := p.save()
	p.skipValue()
	p.expectPunct('(')
	var args []*bcOp
	var types []*Type
	slots := []bcSlot{{0, ret}}
	for !p.isPunct(')') {
		at := p.parseType()
		var attrs Attrs
		for (p.tok.kind == tIdent && paramAttrKeywords[p.text(p.tok)]) || p.tok.kind == tString {
			attrs = append(attrs, p.parseAttr())
		}
		args = append(args, f.operand(a, at))
		types = append(types, at)
		slots = append(slots, bcSlot{uint64(len(args)), attrs})
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
	if ft == nil {
		ft = &Type{Kind: FuncType, Ret: t, Fields: types}
	}
	ct := bcPtr(as)
	if !a.opq {
		ct = &Type{Kind: PtrType, Elem: ft, AddrSpace: uint32(as)}
	}
	end := p.save()
	p.restore(save)
	a.consts.asmFnTy = ft
	callee := f.operand(a, ct)
	a.consts.asmFnTy = nil
	p.restore(end)
	_ = opAt
	return ft, callee, ret, args, slots
}

// fnAttrsAndBundles parses the call-site function attributes and operand
// bundles after the arguments.
func (a *bcw) fnAttrsAndBundles(f *bcFunc, in *bcInst, opAt int) []bcFnPart {
	p := a.p
	var fn []bcFnPart
	for {
		switch {
		case p.tok.kind == tAttrID:
			fn = append(fn, bcFnPart{group: p.number(p.tok)})
			p.next()
			continue
		case p.tok.kind == tString:
			fn = append(fn, bcFnPart{group: -1, attr: p.parseAttr()})
			continue
		case p.tok.kind == tIdent && bcIsAttr(p.text(p.tok)):
			fn = append(fn, bcFnPart{group: -1, attr: p.parseAttr()})
			continue
		}
		break
	}
	if p.isPunct('[') {
		f.noCache = true // the tags' numbers are the module's
		p.next()
		for !p.isPunct(']') {
			tag := p.expectString()
			rec := []bcField{lit(uint64(a.bundles.id(tag)))}
			p.expectPunct('(')
			for !p.isPunct(')') {
				rec = append(rec, vt(f.typedOperand(a)))
				if !p.acceptPunct(',') {
					break
				}
			}
			p.expectPunct(')')
			m := in.extra()
			m.bundles = append(m.bundles, rec)
			if !p.acceptPunct(',') {
				break
			}
		}
		p.expectPunct(']')
	}
	return fn
}

func (a *bcw) argFields(ft *Type, args []*bcOp, opAt int) []bcField {
	var out []bcField
	if len(args) < len(ft.Fields) || (!ft.VarArg && len(args) != len(ft.Fields)) {
		a.p.fail(opAt, "wrong number of arguments for the function type")
	}
	for i, arg := range args {
		switch {
		case i >= len(ft.Fields):
			out = append(out, vt(arg))
		case arg.md != nil:
			out = append(out, bcField{kind: fMD, md: arg.md, op: arg})
		case ft.Fields[i].Kind == LabelType:
			out = append(out, bcField{kind: fAbs, op: arg})
		default:
			out = append(out, val(arg))
		}
	}
	return out
}

func (a *bcw) call(f *bcFunc, in *bcInst, marker uint64, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstCall
	fl := a.parseFlags()
	cc := a.callingConv(opAt, a.p.parseCallingConv())
	ft, callee, _, args, slots := a.calleeAndArgs(f, opAt)
	fn := a.fnAttrsAndBundles(f, in, opAt)
	attrs := f.attrsField(a, opAt, fn, slots)
	flags := cc<<1 | marker | 1<<15
	in.fields = a.fieldList(8, attrs)
	if fl.fmf != 0 {
		flags |= 1 << 17
		in.fields = append(in.fields, lit(flags), lit(fl.fmf))
	} else {
		in.fields = append(in.fields, lit(flags))
	}
	in.fields = append(in.fields, f.tyField(a, ft, opAt), vt(callee))
	in.fields = append(in.fields, a.argFields(ft, args, opAt)...)
	_ = p
}

func (a *bcw) invoke(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstInvoke
	cc := a.callingConv(opAt, p.parseCallingConv())
	ft, callee, _, args, slots := a.calleeAndArgs(f, opAt)
	fn := a.fnAttrsAndBundles(f, in, opAt)
	attrs := f.attrsField(a, opAt, fn, slots)
	p.expectIdent("to")
	normal := f.blockRef(a)
	p.expectIdent("unwind")
	unwind := f.blockRef(a)
	in.fields = a.fieldList(1, attrs, lit(cc|1<<13), normal, unwind, f.tyField(a, ft, opAt), vt(callee))
	in.fields = append(in.fields, a.argFields(ft, args, opAt)...)
}

// callbr parses "callbr … to label %d [label %i, …]": the record is
// [attrs, cc, default, n, indirect…, fnty, callee, args…].
func (a *bcw) callbr(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstCallBr
	cc := a.callingConv(opAt, p.parseCallingConv())
	ft, callee, _, args, slots := a.calleeAndArgs(f, opAt)
	fn := a.fnAttrsAndBundles(f, in, opAt)
	attrs := f.attrsField(a, opAt, fn, slots)
	p.expectIdent("to")
	normal := f.blockRef(a)
	p.expectPunct('[')
	var indirect []bcField
	for !p.isPunct(']') {
		indirect = append(indirect, f.blockRef(a))
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(']')
	in.fields = a.fieldList(1, attrs, lit(cc<<1|1<<15), normal, lit(uint64(len(indirect))))
	in.fields = append(in.fields, indirect...)
	in.fields = append(in.fields, f.tyField(a, ft, opAt), vt(callee))
	in.fields = append(in.fields, a.argFields(ft, args, opAt)...)
}

// writeBody writes a function block.
func (a *bcw) writeBody(f *bcFunc) {
	if f.kept != nil {
		a.writeKept(f)
		return
	}
	s := a.s
	s.EnterBlock(bitcode.FunctionBlockID, 4)
	s.Record(bitcode.FuncCodeDeclareBlocks, uint64(len(f.bnames)))
	base := a.consts.base + len(a.consts.list) // the first argument's number
	a.md.writeFunction(f, base)
	attach := a.writeInsts(f, base)
	a.writeAttachments(f, attach)
	a.writeLocalNames(f, base)
	s.ExitBlock()
}

// bcBodyEnc encodes the fields of a body's records: relative value
// numbers count back from instID, the number of the next result.
type bcBodyEnc struct {
	a      *bcw
	f      *bcFunc
	base   int // the first argument's number
	instID uint64
	vals   []uint64
	fwd    bool // the last record encoded has a forward reference
}

// abs returns an operand's absolute value number.
func (e *bcBodyEnc) abs(op *bcOp) uint64 {
	if op.l != nil {
		return uint64(e.base + op.l.index)
	}
	return uint64(e.a.consts.id(e.f.res[op.dep-1].c))
}

// encode returns the record of fields, in a buffer reused by the next
// call.
func (e *bcBodyEnc) encode(fields []bcField) []uint64 {
	vals := e.vals[:0]
	instID := e.instID
	e.fwd = false
	for _, fd := range fields {
		switch fd.kind {
		case fLit:
			vals = append(vals, fd.v)
		case fVal:
			vals = append(vals, uint64(uint32(instID-e.abs(fd.op))))
		case fVT:
			id := e.abs(fd.op)
			vals = append(vals, uint64(uint32(instID-id)))
			if id >= instID {
				vals = append(vals, e.a.tys.ref(fd.op.t))
				e.fwd = true
			}
		case fSVal:
			vals = append(vals, bcSignRotate(instID-e.abs(fd.op), 64))
		case fAbs:
			vals = append(vals, e.abs(fd.op))
		case fBB:
			ref := e.f.bbRefs[fd.v]
			i, ok := e.f.blocks[ref.name]
			if !ok {
				e.a.p.fail(ref.at, "use of undefined basic block")
			}
			vals = append(vals, uint64(i))
		case fMD:
			vals = append(vals, uint64(uint32(instID-uint64(fd.md.id))))
		case fDep:
			vals = append(vals, e.f.res[fd.v].v)
		}
	}
	e.vals = vals
	return vals
}

// writeInsts writes the records of f's instructions, each with its
// bundles, debug location and debug records, and returns the records of
// their metadata attachments.
func (a *bcw) writeInsts(f *bcFunc, base int) [][]uint64 {
	s := a.s
	e := bcBodyEnc{a: a, f: f, base: base, instID: uint64(base + f.nargs)}
	var attach [][]uint64
	var none bcInstMore
	for i, in := range f.insts {
		more := in.more
		if more == nil {
			more = &none
		}
		for _, b := range more.bundles {
			s.Record(bitcode.FuncCodeOperandBundle, e.encode(b)...)
		}
		a.instRecord(in.code, e.encode(in.fields), e.fwd)
		if in.loc != 0 {
			l := a.md.loc(f.res[in.loc-1].md)
			s.Record(bitcode.FuncCodeDebugLoc, l...)
		}
		for _, r := range more.records {
			ops := make([]uint64, len(r.fields))
			for j, m := range r.fields {
				ops[j] = uint64(m.id)
			}
			s.Record(r.code, ops...)
		}
		if len(more.attach) > 0 {
			rec := []uint64{uint64(i)}
			for _, at := range more.attach {
				rec = append(rec, f.res[at.kind].v, uint64(f.res[at.md].md.id))
			}
			attach = append(attach, rec)
		}
		if in.result != nil {
			e.instID++
		}
	}
	return attach
}

// writeAttachments writes the function's attachments and the
// instructions' (attach) in a metadata attachment block, if any.
func (a *bcw) writeAttachments(f *bcFunc, attach [][]uint64) {
	s := a.s
	if len(f.attach) == 0 && len(attach) == 0 {
		return
	}
	s.EnterBlock(bitcode.MetadataAttachmentID, 3)
	if len(f.attach) > 0 {
		var rec []uint64
		for i, k := range f.attach {
			rec = append(rec, k[0], uint64(f.attMD[i].id))
		}
		s.Record(bitcode.MetadataAttachment, rec...)
	}
	for _, r := range attach {
		s.Record(bitcode.MetadataAttachment, r...)
	}
	s.ExitBlock()
}

// writeLocalNames writes the names of arguments, values and blocks in a
// value symbol table, if any has one.
func (a *bcw) writeLocalNames(f *bcFunc, base int) {
	names := a.names[:0]
	for _, l := range f.order {
		if l.named {
			names = append(names, bcKName{l.index, l.name})
		}
	}
	a.names = names
	a.writeNames(names, f.bnames, base)
}

// writeNames writes a function's value symbol table: named values (by
// their index from the first argument, base's number) and blocks.
func (a *bcw) writeNames(names []bcKName, bnames []string, base int) {
	s := a.s
	hasNames := len(names) > 0
	for _, n := range bnames {
		hasNames = hasNames || n != ""
	}
	if !hasNames {
		return
	}
	s.EnterBlock(bitcode.ValueSymtabBlockID, 4)
	var ab vstAbbrevs
	for _, l := range names {
		s.TextRecord(ab.pick(s, bitcode.VSTCodeEntry, l.name), uint64(base+l.index), l.name)
	}
	for i, n := range bnames {
		if n != "" {
			s.TextRecord(ab.pick(s, bitcode.VSTCodeBBEntry, n), uint64(i), n)
		}
	}
	s.ExitBlock()
}

// vstAbbrevs are the abbreviations of one value symbol table's entries,
// defined as they are first needed, as LLVM's writer uses them: the
// entry's value, then its name as 6-bit characters ([a-zA-Z0-9._]),
// 7-bit or 8-bit ones, whichever holds every byte.
type vstAbbrevs struct {
	ids [2][3]uint64 // [entry, block entry][char6, 7-bit, 8-bit]
}

func (ab *vstAbbrevs) pick(s *bitcode.StreamWriter, code uint64, name string) uint64 {
	return ab.id(s, code, vstClass(name))
}

// id is the abbreviation of code's entries whose names are of class (see
// vstClass), defined when first asked for.
func (ab *vstAbbrevs) id(s *bitcode.StreamWriter, code uint64, class int) uint64 {
	row := &ab.ids[code-bitcode.VSTCodeEntry]
	if row[class] == 0 {
		row[class] = s.DefineAbbrev(bitstream.Literal(code), bitstream.VBR(8), bitstream.Array(), vstElement(class))
	}
	return row[class]
}

// vstClass is the narrowest element that holds every byte of name: 0 for
// 6-bit characters, 1 for 7-bit ones, 2 for bytes (vstElement).
func vstClass(name string) int {
	class := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 0x80:
			return 2
		case class == 0 && !isChar6(c):
			class = 1
		}
	}
	return class
}

// vstElement is the array element of a name of class (vstClass).
func vstElement(class int) bitstream.AbbrevOp { return vstElements[class] }

var vstElements = [...]bitstream.AbbrevOp{bitstream.Char6(), bitstream.Fixed(7), bitstream.Fixed(8)}

func isChar6(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
}

// bcIsAttr reports whether a word is a built-in attribute.
func bcIsAttr(w string) bool {
	_, ok := bitcode.AttrKind(w)
	return ok
}
