package llvmir

import (
	"github.com/sycbuild/sycbuild/bitcode"
)

// instFields parses the operands of the instruction op into in's record:
// one method per opcode or family of opcodes.
func (a *bcw) instFields(f *bcFunc, in *bcInst, op string, opAt int) {
	switch op {
	case "ret":
		a.instRet(f, in)
	case "br":
		a.instBr(f, in)
	case "switch":
		a.instSwitch(f, in, opAt)
	case "indirectbr":
		a.instIndirectBr(f, in, opAt)
	case "unreachable":
		in.code = bitcode.FuncCodeInstUnreachable
	case "resume":
		a.instResume(f, in)
	case "fneg":
		a.instFNeg(f, in)
	case "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
		"fadd", "fsub", "fmul", "fdiv", "frem":
		a.instBinop(f, in, op)
	case "extractelement":
		a.instExtractElement(f, in)
	case "insertelement":
		a.instInsertElement(f, in)
	case "shufflevector":
		a.instShuffleVector(f, in)
	case "extractvalue":
		a.instExtractValue(f, in)
	case "insertvalue":
		a.instInsertValue(f, in)
	case "alloca":
		a.instAlloca(f, in, opAt)
	case "load":
		a.instLoad(f, in, opAt)
	case "store":
		a.instStore(f, in)
	case "fence":
		a.instFence(in)
	case "cmpxchg":
		a.instCmpXchg(f, in)
	case "atomicrmw":
		a.instAtomicRMW(f, in)
	case "getelementptr":
		a.instGEP(f, in, opAt)
	case "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext", "ptrtoint",
		"inttoptr", "bitcast", "addrspacecast":
		a.instCast(f, in, op, opAt)
	case "icmp", "fcmp":
		a.instCmp(f, in, op)
	case "phi":
		a.instPhi(f, in, opAt)
	case "select":
		a.instSelect(f, in)
	case "freeze":
		a.instFreeze(f, in)
	case "va_arg":
		a.instVAArg(f, in, opAt)
	case "landingpad":
		a.instLandingPad(f, in, opAt)
	case "tail", "musttail", "notail", "call":
		a.instCall(f, in, op, opAt)
	case "invoke":
		a.invoke(f, in, opAt)
	case "callbr":
		a.callbr(f, in, opAt)
	case "cleanuppad", "catchpad":
		a.instFuncletPad(f, in, op)
	case "catchswitch":
		a.instCatchSwitch(f, in)
	case "catchret":
		a.instCatchRet(f, in)
	case "cleanupret":
		a.instCleanupRet(f, in)
	default:
		a.unsupported(opAt, "the instruction "+op)
	}
}

// instRet parses "ret void" or "ret <ty> <value>".
func (a *bcw) instRet(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstRet
	if !a.p.acceptIdent("void") {
		in.fields = a.fieldList(1, vt(f.typedOperand(a)))
	}
}

// instBr parses an unconditional or a conditional branch.
func (a *bcw) instBr(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstBr
	if p.isIdent("label") {
		in.fields = a.fieldList(1, f.blockRef(a))
		return
	}
	c := f.typedOperand(a)
	p.expectPunct(',')
	t := f.blockRef(a)
	p.expectPunct(',')
	e := f.blockRef(a)
	in.fields = a.fieldList(1, t, e, val(c))
}

// instSwitch parses a switch: its condition, default and case table.
func (a *bcw) instSwitch(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstSwitch
	c := f.typedOperand(a)
	p.expectPunct(',')
	d := f.blockRef(a)
	in.fields = a.fieldList(1, f.tyField(a, c.t, opAt), val(c), d)
	p.expectPunct('[')
	for !p.isPunct(']') {
		v := f.typedOperand(a)
		if v.dep == 0 {
			p.fail(opAt, "switch case values must be constants")
		}
		p.expectPunct(',')
		in.fields = append(in.fields, bcField{kind: fAbs, op: v}, f.blockRef(a))
	}
	p.expectPunct(']')
}

// instIndirectBr parses an indirectbr: its address and possible
// destinations.
func (a *bcw) instIndirectBr(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstIndirectBr
	addr := f.typedOperand(a)
	in.fields = a.fieldList(1, f.tyField(a, addr.t, opAt), val(addr))
	p.expectPunct(',')
	p.expectPunct('[')
	for !p.isPunct(']') {
		in.fields = append(in.fields, f.blockRef(a))
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(']')
}

// instResume parses "resume <ty> <value>".
func (a *bcw) instResume(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstResume
	in.fields = a.fieldList(1, vt(f.typedOperand(a)))
}

// instFNeg parses fneg, the one unary operator, with its fast-math flags.
func (a *bcw) instFNeg(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstUnop
	fl := a.parseFlags()
	v := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v), lit(0))
	if fl.fmf != 0 {
		in.fields = append(in.fields, lit(fl.fmf))
	}
}

// instBinop parses a binary operator op with its flags.
func (a *bcw) instBinop(f *bcFunc, in *bcInst, op string) {
	p := a.p
	in.code = bitcode.FuncCodeInstBinop
	fl := a.parseFlags()
	l := f.typedOperand(a)
	p.expectPunct(',')
	r := f.operand(a, l.t)
	code, _ := bcBinOp(op)
	in.fields = a.fieldList(1, vt(l), val(r), lit(code))
	if v := fl.binop(op); v != 0 {
		in.fields = append(in.fields, lit(v))
	}
}

// instExtractElement parses "extractelement <vec>, <index>".
func (a *bcw) instExtractElement(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstExtractElt
	v := f.typedOperand(a)
	a.p.expectPunct(',')
	ix := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v), vt(ix))
}

// instInsertElement parses "insertelement <vec>, <elt>, <index>".
func (a *bcw) instInsertElement(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstInsertElt
	v := f.typedOperand(a)
	p.expectPunct(',')
	el := f.typedOperand(a)
	p.expectPunct(',')
	ix := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v), val(el), vt(ix))
}

// instShuffleVector parses "shufflevector <v1>, <v2>, <mask>".
func (a *bcw) instShuffleVector(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstShuffleVec
	v1 := f.typedOperand(a)
	p.expectPunct(',')
	v2 := f.typedOperand(a)
	p.expectPunct(',')
	m := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v1), val(v2), val(m))
}

// instExtractValue parses "extractvalue <agg>, idx…".
func (a *bcw) instExtractValue(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstExtractVal
	v := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v))
	a.aggIndices(in)
}

// instInsertValue parses "insertvalue <agg>, <elt>, idx…".
func (a *bcw) instInsertValue(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstInsertVal
	v := f.typedOperand(a)
	a.p.expectPunct(',')
	el := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(v), vt(el))
	a.aggIndices(in)
}

// aggIndices appends the constant indices of extractvalue and
// insertvalue, stopping before the attachments.
func (a *bcw) aggIndices(in *bcInst) {
	p := a.p
	for p.isPunct(',') {
		st := p.save()
		p.next()
		if p.tok.kind != tInt {
			p.restore(st)
			break
		}
		in.fields = append(in.fields, lit(p.expectUint("index")))
	}
}

// instAlloca parses an alloca: its flags, type, count, alignment and
// address space (and the attachments its loop meets).
func (a *bcw) instAlloca(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstAlloca
	var inalloca, swifterr uint64
	if p.acceptIdent("inalloca") {
		inalloca = 1
	}
	if p.acceptIdent("swifterror") {
		swifterr = 1
	}
	t := p.parseType()
	var size *bcOp
	var align, as uint64
	hasAS := false
	for p.acceptPunct(',') {
		switch {
		case p.acceptIdent("align"):
			align = bcAlign(p.tok.start, a, p.expectUint("alignment"))
		case p.isIdent("addrspace"):
			as = uint64(p.parseAddrSpace())
			hasAS = true
		case p.tok.kind == tMetaVar:
			a.attachmentTail(f, in)
		default:
			if size != nil {
				p.failTok("expected align or addrspace")
			}
			size = f.typedOperand(a)
		}
	}
	if size == nil {
		size = &bcOp{t: typeI32, dep: f.intOneDep(a) + 1}
	}
	rec := align&31 | inalloca<<5 | 1<<6 | swifterr<<7 | (align>>5)<<8
	in.fields = a.fieldList(1, f.tyField(a, t, opAt), f.tyField(a, size.t, opAt), bcField{kind: fAbs, op: size}, lit(rec))
	if hasAS {
		in.fields = append(in.fields, lit(as))
	}
}

// instLoad parses a load, plain or atomic.
func (a *bcw) instLoad(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	atomic := p.acceptIdent("atomic")
	vol := uint64(0)
	if p.acceptIdent("volatile") {
		vol = 1
	}
	t := p.parseType()
	p.expectPunct(',')
	ptr := f.typedOperand(a)
	in.code = bitcode.FuncCodeInstLoad
	var ord, ss uint64
	if atomic {
		in.code = bitcode.FuncCodeInstLoadAtomic
		ss = a.scope()
		ord = a.ordering()
	}
	align := a.alignTail(in)
	in.fields = a.fieldList(1, vt(ptr), f.tyField(a, t, opAt), lit(align), lit(vol))
	if atomic {
		in.fields = append(in.fields, lit(ord), lit(ss))
	}
}

// instStore parses a store, plain or atomic.
func (a *bcw) instStore(f *bcFunc, in *bcInst) {
	p := a.p
	atomic := p.acceptIdent("atomic")
	vol := uint64(0)
	if p.acceptIdent("volatile") {
		vol = 1
	}
	v := f.typedOperand(a)
	p.expectPunct(',')
	ptr := f.typedOperand(a)
	in.code = bitcode.FuncCodeInstStore
	var ord, ss uint64
	if atomic {
		in.code = bitcode.FuncCodeInstStoreAtomic
		ss = a.scope()
		ord = a.ordering()
	}
	align := a.alignTail(in)
	in.fields = a.fieldList(1, vt(ptr), vt(v), lit(align), lit(vol))
	if atomic {
		in.fields = append(in.fields, lit(ord), lit(ss))
	}
}

// instFence parses "fence [syncscope(…)] <ordering>".
func (a *bcw) instFence(in *bcInst) {
	in.code = bitcode.FuncCodeInstFence
	ss := a.scope()
	in.fields = a.fieldList(1, lit(a.ordering()), lit(ss))
}

// instCmpXchg parses a cmpxchg: its flags, operands, orderings and
// alignment.
func (a *bcw) instCmpXchg(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstCmpXchg
	var weak, vol uint64
	if p.acceptIdent("weak") {
		weak = 1
	}
	if p.acceptIdent("volatile") {
		vol = 1
	}
	ptr := f.typedOperand(a)
	p.expectPunct(',')
	c := f.typedOperand(a)
	p.expectPunct(',')
	n := f.typedOperand(a)
	ss := a.scope()
	succ := a.ordering()
	fail := a.ordering()
	align := a.alignTail(in)
	in.fields = a.fieldList(1, vt(ptr), vt(c), val(n), lit(vol), lit(succ), lit(ss), lit(fail), lit(weak), lit(align))
}

// instAtomicRMW parses an atomicrmw: its operation, operands, ordering
// and alignment.
func (a *bcw) instAtomicRMW(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstAtomicRMW
	vol := uint64(0)
	if p.acceptIdent("volatile") {
		vol = 1
	}
	rop, ok := bcRMWOps[p.text(p.tok)]
	if !ok {
		p.failTok("expected an atomicrmw operation")
	}
	p.next()
	ptr := f.typedOperand(a)
	p.expectPunct(',')
	v := f.typedOperand(a)
	ss := a.scope()
	ord := a.ordering()
	align := a.alignTail(in)
	in.fields = a.fieldList(1, vt(ptr), vt(v), lit(rop), lit(vol), lit(ord), lit(ss), lit(align))
}

// instGEP parses a getelementptr: its flags, source type and indices.
func (a *bcw) instGEP(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstGEP
	fl := a.parseFlags()
	if p.isIdent("inrange") {
		a.unsupported(p.tok.start, "inrange on an instruction")
	}
	t := p.parseType()
	in.fields = a.fieldList(1, lit(fl.gep()), f.tyField(a, t, opAt))
	if a.gen < 19 && fl.gep() > 1 {
		a.unsupported(opAt, "nusw/nuw on getelementptr before LLVM 19")
	}
	for p.isPunct(',') {
		st := p.save()
		p.next()
		if p.tok.kind == tMetaVar {
			p.restore(st)
			break
		}
		in.fields = append(in.fields, vt(f.typedOperand(a)))
	}
}

// instCast parses the cast op and the flags its kind takes.
func (a *bcw) instCast(f *bcFunc, in *bcInst, op string, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstCast
	fl := a.parseFlags()
	v := f.typedOperand(a)
	p.expectIdent("to")
	to := p.parseType()
	in.fields = a.fieldList(1, vt(v), f.tyField(a, to, opAt), lit(bcCastOps[op]))
	var flags uint64
	switch op {
	case "zext", "uitofp":
		if fl.nneg {
			flags = 1
		}
	case "trunc":
		if fl.nuw {
			flags |= 1
		}
		if fl.nsw {
			flags |= 2
		}
	default:
		flags = fl.fmf
	}
	if flags != 0 {
		in.fields = append(in.fields, lit(flags))
	}
}

// instCmp parses an icmp or fcmp: its flags, predicate and operands.
func (a *bcw) instCmp(f *bcFunc, in *bcInst, op string) {
	p := a.p
	in.code = bitcode.FuncCodeInstCmp2
	fl := a.parseFlags()
	w := p.text(p.tok)
	pred, ok := bcPreds[w]
	if op == "icmp" {
		if v, ok2 := bcIPreds[w]; ok2 {
			pred, ok = v, true
		}
	}
	if !ok || p.tok.kind != tIdent {
		p.failTok("expected a comparison predicate")
	}
	p.next()
	l := f.typedOperand(a)
	p.expectPunct(',')
	r := f.operand(a, l.t)
	in.fields = a.fieldList(1, vt(l), val(r), lit(pred))
	if fl.samesign {
		in.fields = append(in.fields, lit(1))
	} else if fl.fmf != 0 {
		in.fields = append(in.fields, lit(fl.fmf))
	}
}

// instPhi parses a phi: its type and its [value, block] pairs.
func (a *bcw) instPhi(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstPhi
	fl := a.parseFlags()
	t := p.parseType()
	in.fields = a.fieldList(1, f.tyField(a, t, opAt))
	for {
		p.expectPunct('[')
		v := f.operand(a, t)
		p.expectPunct(',')
		bt := p.tok
		if bt.kind != tLocal && bt.kind != tLocalN {
			p.failTok("expected a basic block")
		}
		p.next()
		name := p.text(bt)[1:]
		if bt.kind == tLocal {
			name = "%" + p.name(bt)
		}
		p.expectPunct(']')
		in.fields = append(in.fields, bcField{kind: fSVal, op: v}, f.bbRef(name, bt.start))
		st := p.save()
		if !p.acceptPunct(',') {
			break
		}
		if !p.isPunct('[') {
			p.restore(st)
			break
		}
	}
	if fl.fmf != 0 {
		in.fields = append(in.fields, lit(fl.fmf))
	}
}

// instSelect parses "select <cond>, <true>, <false>" with its flags.
func (a *bcw) instSelect(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstVSelect
	fl := a.parseFlags()
	c := f.typedOperand(a)
	p.expectPunct(',')
	t := f.typedOperand(a)
	p.expectPunct(',')
	e := f.typedOperand(a)
	in.fields = a.fieldList(1, vt(t), val(e), vt(c))
	if fl.fmf != 0 {
		in.fields = append(in.fields, lit(fl.fmf))
	}
}

// instFreeze parses "freeze <ty> <value>".
func (a *bcw) instFreeze(f *bcFunc, in *bcInst) {
	in.code = bitcode.FuncCodeInstFreeze
	in.fields = a.fieldList(1, vt(f.typedOperand(a)))
}

// instVAArg parses "va_arg <list>, <ty>".
func (a *bcw) instVAArg(f *bcFunc, in *bcInst, opAt int) {
	in.code = bitcode.FuncCodeInstVAArg
	v := f.typedOperand(a)
	a.p.expectPunct(',')
	t := a.p.parseType()
	in.fields = a.fieldList(1, f.tyField(a, v.t, opAt), val(v), f.tyField(a, t, opAt))
}

// instLandingPad parses a landingpad: its type, cleanup flag and
// catch/filter clauses.
func (a *bcw) instLandingPad(f *bcFunc, in *bcInst, opAt int) {
	p := a.p
	in.code = bitcode.FuncCodeInstLandingPad
	t := p.parseType()
	cleanup := uint64(0)
	if p.acceptIdent("cleanup") {
		cleanup = 1
	}
	var clauses []bcField
	n := uint64(0)
	for p.isIdent("catch") || p.isIdent("filter") {
		k := uint64(0)
		if p.isIdent("filter") {
			k = 1
		}
		p.next()
		clauses = append(clauses, lit(k), vt(f.typedOperand(a)))
		n++
	}
	in.fields = append([]bcField{f.tyField(a, t, opAt), lit(cleanup), lit(n)}, clauses...)
}

// instCall parses a call, after its tail-call marker op if any.
func (a *bcw) instCall(f *bcFunc, in *bcInst, op string, opAt int) {
	var marker uint64
	switch op {
	case "tail":
		marker = 1
	case "musttail":
		marker = 1 | 1<<14
	case "notail":
		marker = 1 << 16
	}
	if op != "call" {
		a.p.expectIdent("call")
	}
	a.call(f, in, marker, opAt)
}

// instFuncletPad parses a cleanuppad or catchpad: its parent and
// arguments.
func (a *bcw) instFuncletPad(f *bcFunc, in *bcInst, op string) {
	p := a.p
	in.code = bitcode.FuncCodeInstCleanupPad
	if op == "catchpad" {
		in.code = bitcode.FuncCodeInstCatchPad
	}
	p.expectIdent("within")
	parent := f.operand(a, typeToken)
	in.fields = a.fieldList(1, val(parent), lit(0))
	p.expectPunct('[')
	n := uint64(0)
	for !p.isPunct(']') {
		in.fields = append(in.fields, vt(f.typedOperand(a)))
		n++
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(']')
	in.fields[1] = lit(n)
}

// instCatchSwitch parses a catchswitch: its parent, handlers and unwind
// destination.
func (a *bcw) instCatchSwitch(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstCatchSwitch
	p.expectIdent("within")
	parent := f.operand(a, typeToken)
	in.fields = a.fieldList(1, val(parent), lit(0))
	p.expectPunct('[')
	n := uint64(0)
	for !p.isPunct(']') {
		in.fields = append(in.fields, f.blockRef(a))
		n++
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(']')
	in.fields[1] = lit(n)
	a.unwindDest(f, in)
}

// instCatchRet parses "catchret from <pad> to label <bb>".
func (a *bcw) instCatchRet(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstCatchRet
	p.expectIdent("from")
	pad := f.operand(a, typeToken)
	p.expectIdent("to")
	in.fields = a.fieldList(1, val(pad), f.blockRef(a))
}

// instCleanupRet parses "cleanupret from <pad> unwind …".
func (a *bcw) instCleanupRet(f *bcFunc, in *bcInst) {
	p := a.p
	in.code = bitcode.FuncCodeInstCleanupRet
	p.expectIdent("from")
	pad := f.operand(a, typeToken)
	in.fields = a.fieldList(1, val(pad))
	a.unwindDest(f, in)
}

// unwindDest parses "unwind to caller" or "unwind label <bb>", appending
// the block when there is one.
func (a *bcw) unwindDest(f *bcFunc, in *bcInst) {
	p := a.p
	p.expectIdent("unwind")
	if !p.acceptIdent("to") {
		in.fields = append(in.fields, f.blockRef(a))
	} else {
		p.expectIdent("caller")
	}
}
