package bitcode

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// funcState is the function body being decoded. Instruction text refers
// to local values and blocks through markers (markVal or markBlock and a
// little-endian uint32) because their names come from the symbol table at
// the block's end; finishFunction resolves them.
type funcState struct {
	g          *global
	firstLocal uint32
	nBlocks    int
	curBB      int
	buf        []byte
	insts      []instRec
	names      []string // by value id past firstLocal ("" for none)
	bbNames    []string // by block number ("" for none)
	bundles    []string
	mdStart    int
	constStart int
	lastLoc    string
	lastLocGid int32
	fnAttach   string
	fnAttachs  []mdAttach
	argRoots   []int32 // metadata arguments of the intrinsic call being read
}

type instRec struct {
	start, end int
	result     int64 // value id, -1 for none
	bb         int
	dbg        string
	attach     string
	pre        []string
	dbgGid     int32      // the !dbg location node, -1 for none
	roots      []int32    // nodes SlotTracker numbers for this instruction, before its attachments
	attachs    []mdAttach // attachments other than !dbg
}

const (
	markVal   = 0x00
	markBlock = 0x01
	markBBRef = 0x02 // blockaddress: function value id and block index
)

func marker(kind byte, id uint32) string {
	var b [5]byte
	b[0] = kind
	binary.LittleEndian.PutUint32(b[1:], id)
	return string(b[:])
}

func blockRefMarker(fn, bb uint32) string {
	return marker(markBBRef, fn) + marker(markBBRef, bb)[1:]
}

// localRef refers to local value id.
func (d *decoder) localRef(id uint32) string {
	if d.fn == nil {
		d.failf("reference to value %d outside a function", id)
	}
	if id >= maxValMarkers {
		return marker(markVal, id)
	}
	d.valMarkers = growTo(d.valMarkers, int(id)+1)
	if d.valMarkers[id] == "" {
		d.valMarkers[id] = marker(markVal, id)
	}
	return d.valMarkers[id]
}

// maxValMarkers bounds the markers a decoder keeps (valMarkers).
const maxValMarkers = 1 << 20

func (d *decoder) bbRef(bb uint64) string {
	if bb >= uint64(d.fn.nBlocks) {
		d.failf("basic block %d out of range", bb)
	}
	return "label " + marker(markBlock, uint32(bb))
}

func (d *decoder) bbName(bb uint64) string {
	if bb >= uint64(d.fn.nBlocks) {
		d.failf("basic block %d out of range", bb)
	}
	return marker(markBlock, uint32(bb))
}

// ops reader for one instruction record.
type opr struct {
	d   *decoder
	ops []uint64
	i   int
}

func (o *opr) more() bool { return o.i < len(o.ops) }

func (o *opr) next() uint64 {
	if o.i >= len(o.ops) {
		o.d.failf("instruction record too short")
	}
	o.i++
	return o.ops[o.i-1]
}

// abs turns an operand into an absolute value id.
func (o *opr) abs(v uint64) uint32 {
	if o.d.version >= 1 {
		return uint32(len(o.d.vals)) - uint32(v)
	}
	return uint32(v)
}

// vt reads a value and, for a forward reference, its type.
func (o *opr) vt() (uint32, int32) {
	id := o.abs(o.next())
	if uint64(id) < uint64(len(o.d.vals)) {
		return id, o.d.vals[id].ty
	}
	return id, o.d.tyID(o.next())
}

// v reads a value whose type the instruction implies.
func (o *opr) v() uint32 { return o.abs(o.next()) }

func (o *opr) ty() int32 { return o.d.tyID(o.next()) }

// val renders value id of type ty (no type).
func (d *decoder) val(id uint32, ty int32) string {
	if d.types[ty].kind == tMetadata {
		return d.mdRef(uint64(id), false)
	}
	if uint64(id) < uint64(len(d.vals)) {
		switch d.vals[id].kind {
		case vGlobal, vConst:
			return d.constText(uint64(id), ty)
		}
	}
	return d.localRef(id)
}

func (d *decoder) tval(id uint32, ty int32) string { return d.tstr(ty) + " " + d.val(id, ty) }

var orderings = [...]string{"", "unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst"}

var rmwOps = [...]string{"xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin",
	"fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat",
	"fmaximum", "fminimum", "fmaximumnum", "fminimumnum"}

func (d *decoder) ordering(v uint64) string {
	if v == 0 || v >= uint64(len(orderings)) {
		d.failf("bad atomic ordering %d", v)
	}
	return orderings[v]
}

func (d *decoder) syncScope(v uint64) string {
	if len(d.syncScopes) > 0 {
		if v >= uint64(len(d.syncScopes)) {
			d.failf("sync scope %d out of range", v)
		}
		if d.syncScopes[v] == "" {
			return ""
		}
		return " syncscope(" + quoteString(d.syncScopes[v]) + ")"
	}
	switch v {
	case 0:
		return ` syncscope("singlethread")`
	case 1:
		return ""
	}
	d.failf("sync scope %d without a sync scope names block", v)
	return ""
}

func alignSuffix(a uint64) string {
	if s := alignText(a); s != "" {
		return ", align " + s
	}
	return ""
}

func (d *decoder) tokenType() int32 { return d.derive(&typ{kind: tToken}) }

// parseFunction decodes a FUNCTION_BLOCK (its id read) into the body of
// the next function with a body.
func (d *decoder) parseFunction() {
	if d.nextBody >= len(d.bodies) {
		d.failf("function body without a function")
	}
	g := d.bodies[d.nextBody]
	d.nextBody++
	ft := d.types[g.valTy]
	fs := &funcState{g: g, firstLocal: uint32(len(d.vals)), names: d.spareNames[:0], bbNames: d.spareBBNames[:0],
		mdStart: len(d.mds), constStart: len(d.consts), buf: d.spareBuf[:0], insts: d.spareInsts[:0]}
	d.fn = fs
	for _, p := range ft.elems[1:] {
		d.vals = append(d.vals, value{ty: p, kind: vArg})
	}
	b := d.EnterBlock(FunctionBlockID)
	for {
		kind, id := d.Next(b)
		if kind == bitstream.End {
			break
		}
		if kind == bitstream.Subblock {
			switch id {
			case ConstantsBlockID:
				d.parseConstants()
			case MetadataBlockID:
				d.parseMetadata()
			case ValueSymtabBlockID:
				d.parseFunctionVST()
			case MetadataAttachmentID:
				d.parseAttachments()
			default:
				d.SkipBlock(id)
			}
			continue
		}
		d.instruction()
	}
	d.Leave()
	d.finishFunction()
	// The next function reuses the instruction buffers (its body text is
	// a copy: finishFunction's).
	d.spareBuf, d.spareInsts = fs.buf, fs.insts
	clear(fs.names)
	clear(fs.bbNames)
	d.spareNames, d.spareBBNames = fs.names, fs.bbNames
	d.fn = nil
	d.vals = d.vals[:d.nModuleVals]
	d.consts = d.consts[:fs.constStart]
	d.mds = d.mds[:d.nModuleMDs]
}

func (d *decoder) parseFunctionVST() {
	b := d.EnterBlock(ValueSymtabBlockID)
	fs := d.fn
	fs.names = growTo(fs.names, len(d.vals)-int(fs.firstLocal))
	fs.bbNames = growTo(fs.bbNames, fs.nBlocks)
	for d.NextRecord(b) {
		if len(d.Ops) < 1 {
			d.failf("bad symbol table entry")
		}
		switch d.Code {
		case VSTCodeEntry:
			vid := d.Ops[0]
			if vid < uint64(fs.firstLocal) || vid >= uint64(len(d.vals)) {
				d.failf("symbol table names value %d, not a local", vid)
			}
			fs.names[vid-uint64(fs.firstLocal)] = localName(d.Ops[1:])
		case VSTCodeBBEntry:
			if d.Ops[0] >= uint64(fs.nBlocks) {
				d.failf("symbol table names block %d of %d", d.Ops[0], fs.nBlocks)
			}
			fs.bbNames[d.Ops[0]] = opsString(d.Ops[1:])
		default:
			d.failf("unknown record code %d", d.Code)
		}
	}
	d.Leave()
}

// growTo returns names with at least n elements, the new ones "".
func growTo(names []string, n int) []string {
	if n > len(names) {
		names = append(names, make([]string, n-len(names))...)
	}
	return names
}

// localName is a local's symbol table entry as the text names the local:
// %name, quoted where it needs to be; "" for an empty name, which names
// nothing. A bare name (the most) takes one allocation.
func localName(ops []uint64) string {
	if len(ops) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.Grow(len(ops) + 1)
	sb.WriteByte('%')
	for _, o := range ops {
		sb.WriteByte(byte(o))
	}
	s := sb.String()
	if isBareName(s[1:]) {
		return s
	}
	return "%" + quoteString(s[1:])
}

// name is the text's name of local value vid (localName), "" for none.
func (fs *funcState) name(vid uint32) string {
	if i := int(vid - fs.firstLocal); vid >= fs.firstLocal && i < len(fs.names) {
		return fs.names[i]
	}
	return ""
}

// bbName is the name the symbol table gave block bb ("" for none).
func (fs *funcState) bbName(bb int) string {
	if bb < len(fs.bbNames) {
		return fs.bbNames[bb]
	}
	return ""
}

func (d *decoder) parseAttachments() {
	b := d.EnterBlock(MetadataAttachmentID)
	for d.NextRecord(b) {
		if d.Code != MetadataAttachment {
			d.failf("unknown record code %d", d.Code)
		}
		ops := d.Ops
		var sb strings.Builder
		start := 0
		if len(ops)%2 == 1 {
			start = 1
		}
		var as []mdAttach
		for i := start; i+1 < len(ops); i += 2 {
			sb.WriteString(", !" + mdName(d.mdKind(ops[i])) + " " + d.mdRef(ops[i+1], false))
			a := mdAttach{kind: ops[i], md: ops[i+1], gid: -1}
			if e := d.md(ops[i+1]); e.kind == mdNodeKind {
				a.gid = e.gid
			}
			as = append(as, a)
		}
		if start == 0 {
			d.fn.fnAttach += strings.ReplaceAll(sb.String(), ", !", " !")
			d.fn.fnAttachs = append(d.fn.fnAttachs, as...)
			continue
		}
		if ops[0] >= uint64(len(d.fn.insts)) {
			d.failf("attachment to instruction %d of %d", ops[0], len(d.fn.insts))
		}
		d.fn.insts[ops[0]].attach += sb.String()
		d.fn.insts[ops[0]].attachs = append(d.fn.insts[ops[0]].attachs, as...)
	}
	d.Leave()
}

// emit records an instruction's text; res is its result type (-1: none).
func (d *decoder) emit(text string, res int32, term bool) { d.emitParts(res, term, text) }

// emitParts is emit of the concatenation of parts, which it does not make.
func (d *decoder) emitParts(res int32, term bool, parts ...string) {
	fs := d.fn
	if fs.curBB >= fs.nBlocks {
		d.failf("instruction outside any basic block")
	}
	r := instRec{start: len(fs.buf), result: -1, bb: fs.curBB, dbgGid: -1, roots: fs.argRoots}
	fs.argRoots = nil
	for _, p := range parts {
		fs.buf = append(fs.buf, p...)
	}
	d.charge(len(fs.buf) - r.start)
	r.end = len(fs.buf)
	if res >= 0 && d.types[res].kind != tVoid {
		r.result = int64(len(d.vals))
		d.vals = append(d.vals, value{ty: res, kind: vInst})
	}
	fs.insts = append(fs.insts, r)
	if term {
		fs.curBB++
	}
}

func (d *decoder) lastInst() *instRec {
	if len(d.fn.insts) == 0 {
		d.failf("record follows no instruction")
	}
	return &d.fn.insts[len(d.fn.insts)-1]
}

func (d *decoder) instruction() {
	o := &d.op
	*o = opr{d: d, ops: d.Ops}
	if int(d.Code) < len(instructionRecords) {
		if read := instructionRecords[d.Code]; read != nil {
			read(d, o)
			return
		}
	}
	d.failf("unknown record code %d", d.Code)
}

// instructionRecords reads each record kind of its code, by code.
var instructionRecords = [...]func(*decoder, *opr){
	FuncCodeDeclareBlocks:           (*decoder).declareBlocks,
	FuncCodeInstBinop:               (*decoder).instBinop,
	FuncCodeInstUnop:                (*decoder).instUnop,
	FuncCodeInstCast:                (*decoder).instCast,
	FuncCodeInstGEP:                 (*decoder).gep,
	FuncCodeInstGEPOld:              (*decoder).instGEPOld,
	FuncCodeInstInboundsGEPOld:      (*decoder).instGEPOld,
	FuncCodeInstExtractVal:          (*decoder).instAggregate,
	FuncCodeInstInsertVal:           (*decoder).instAggregate,
	FuncCodeInstVSelect:             (*decoder).instSelect,
	FuncCodeInstSelect:              (*decoder).instSelect,
	FuncCodeInstExtractElt:          (*decoder).instExtractElt,
	FuncCodeInstInsertElt:           (*decoder).instInsertElt,
	FuncCodeInstShuffleVec:          (*decoder).instShuffleVec,
	FuncCodeInstCmp:                 (*decoder).instCmp,
	FuncCodeInstCmp2:                (*decoder).instCmp,
	FuncCodeInstRet:                 (*decoder).instRet,
	FuncCodeInstBr:                  (*decoder).instBr,
	FuncCodeInstSwitch:              (*decoder).instSwitch,
	FuncCodeInstIndirectBr:          (*decoder).instIndirectBr,
	FuncCodeInstInvoke:              (*decoder).instInvoke,
	FuncCodeInstCallBr:              (*decoder).instCallBr,
	FuncCodeInstCall:                (*decoder).instCall,
	FuncCodeInstResume:              (*decoder).instResume,
	FuncCodeInstUnreachable:         (*decoder).instUnreachable,
	FuncCodeInstPhi:                 (*decoder).phi,
	FuncCodeInstLandingPad:          (*decoder).instLandingPad,
	FuncCodeInstLandingPadOld:       (*decoder).instLandingPad,
	FuncCodeInstAlloca:              (*decoder).alloca,
	FuncCodeInstLoad:                (*decoder).instLoad,
	FuncCodeInstLoadAtomic:          (*decoder).instLoad,
	FuncCodeInstStore:               (*decoder).instStore,
	FuncCodeInstStoreAtomic:         (*decoder).instStore,
	FuncCodeInstStoreOld:            (*decoder).instStore,
	FuncCodeInstStoreAtomicOld:      (*decoder).instStore,
	FuncCodeInstCmpXchg:             (*decoder).instCmpXchg,
	FuncCodeInstCmpXchgOld:          (*decoder).instCmpXchg,
	FuncCodeInstAtomicRMW:           (*decoder).instAtomicRMW,
	FuncCodeInstAtomicRMWOld:        (*decoder).instAtomicRMW,
	FuncCodeInstFence:               (*decoder).instFence,
	FuncCodeInstVAArg:               (*decoder).instVAArg,
	FuncCodeInstFreeze:              (*decoder).instFreeze,
	FuncCodeInstCleanupRet:          (*decoder).instCleanupRet,
	FuncCodeInstCatchRet:            (*decoder).instCatchRet,
	FuncCodeInstCatchSwitch:         (*decoder).instCatchSwitch,
	FuncCodeInstCatchPad:            (*decoder).instCatchPad,
	FuncCodeInstCleanupPad:          (*decoder).instCatchPad,
	FuncCodeOperandBundle:           (*decoder).operandBundle,
	FuncCodeDebugLoc:                (*decoder).debugLoc,
	FuncCodeDebugLocAgain:           (*decoder).debugLocAgain,
	FuncCodeBlockAddrUsers:          (*decoder).blockAddrUsers,
	FuncCodeDebugRecordValue:        (*decoder).debugRecord,
	FuncCodeDebugRecordDeclare:      (*decoder).debugRecord,
	FuncCodeDebugRecordAssign:       (*decoder).debugRecord,
	FuncCodeDebugRecordValueSimple:  (*decoder).debugRecord,
	FuncCodeDebugRecordLabel:        (*decoder).debugRecord,
	FuncCodeDebugRecordDeclareValue: (*decoder).debugRecord,
}

// declareBlocks reads a FuncCodeDeclareBlocks record.
func (d *decoder) declareBlocks(o *opr) {
	fs := d.fn
	n := o.next()
	if n == 0 || n > d.Remaining() || fs.nBlocks != 0 {
		d.failf("bad DECLAREBLOCKS")
	}
	fs.nBlocks = int(n)
}

// instBinop reads a FuncCodeInstBinop record.
func (d *decoder) instBinop(o *opr) {
	a, ty := o.vt()
	b := o.v()
	opc := o.next()
	name := d.binopName(opc, ty)
	flags := ""
	if o.more() {
		flags = binopFlags(opc, o.next(), isFP(d.types[d.scalarOf(ty)].kind))
	}
	// The commonest instruction, written without concatenating its text.
	d.emitParts(ty, false, name, flags, " ", d.tstr(ty), " ", d.val(a, ty), ", ", d.val(b, ty))
}

// instUnop reads a FuncCodeInstUnop record.
func (d *decoder) instUnop(o *opr) {
	a, ty := o.vt()
	if opc := o.next(); opc != 0 {
		d.failf("unknown unary opcode %d", opc)
	}
	flags := ""
	if o.more() {
		flags = fmfText(o.next())
	}
	d.emit("fneg"+flags+" "+d.tval(a, ty), ty, false)
}

// instCast reads a FuncCodeInstCast record.
func (d *decoder) instCast(o *opr) {
	a, ty := o.vt()
	dst := o.ty()
	opc := o.next()
	if opc >= uint64(len(castNames)) {
		d.failf("unknown cast opcode %d", opc)
	}
	flags := ""
	if o.more() {
		f := o.next()
		switch opc {
		case 1, 5: // zext, uitofp
			if f&1 != 0 {
				flags = " nneg"
			}
		case 0: // trunc
			if f&1 != 0 {
				flags += " nuw"
			}
			if f&2 != 0 {
				flags += " nsw"
			}
		default:
			if isFP(d.types[d.scalarOf(dst)].kind) {
				flags = fmfText(f)
			}
		}
	}
	d.emit(castNames[opc]+flags+" "+d.tval(a, ty)+" to "+d.tstr(dst), dst, false)
}

// instGEPOld reads a FuncCodeInstGEPOld, FuncCodeInstInboundsGEPOld record.
func (d *decoder) instGEPOld(o *opr) {
	d.failf("old-style GEP records (LLVM 3.6 and earlier) are not supported")
}

// instAggregate reads a FuncCodeInstExtractVal, FuncCodeInstInsertVal record.
func (d *decoder) instAggregate(o *opr) {
	a, ty := o.vt()
	var sb strings.Builder
	var v uint32
	var vty int32
	if d.Code == FuncCodeInstInsertVal {
		v, vty = o.vt()
		sb.WriteString("insertvalue " + d.tval(a, ty) + ", " + d.tval(v, vty))
	} else {
		sb.WriteString("extractvalue " + d.tval(a, ty))
	}
	cur := ty
	if !o.more() {
		d.failf("aggregate instruction without indices")
	}
	for o.more() {
		idx := o.next()
		t := d.types[cur]
		switch t.kind {
		case tStruct:
			if idx >= uint64(len(t.elems)) {
				d.failf("struct index %d out of range", idx)
			}
			cur = t.elems[idx]
		case tArray:
			if idx >= t.n {
				d.failf("array index %d out of range", idx)
			}
			cur = t.elems[0]
		default:
			d.failf("aggregate index into %s", t.str)
		}
		sb.WriteString(", " + strconv.FormatUint(idx, 10))
	}
	if d.Code == FuncCodeInstInsertVal {
		d.emit(sb.String(), ty, false)
	} else {
		d.emit(sb.String(), cur, false)
	}
}

// instSelect reads a FuncCodeInstVSelect, FuncCodeInstSelect record.
func (d *decoder) instSelect(o *opr) {
	tv, ty := o.vt()
	fv := o.v()
	var c uint32
	var cty int32
	if d.Code == FuncCodeInstVSelect {
		c, cty = o.vt()
	} else {
		c, cty = o.v(), d.intType(1)
	}
	flags := ""
	if o.more() {
		flags = fmfText(o.next())
	}
	d.emit("select"+flags+" "+d.tval(c, cty)+", "+d.tval(tv, ty)+", "+d.tval(fv, ty), ty, false)
}

// instExtractElt reads a FuncCodeInstExtractElt record.
func (d *decoder) instExtractElt(o *opr) {
	v, ty := o.vt()
	i, ity := o.vt()
	if d.types[ty].kind != tVector {
		d.failf("extractelement of a non-vector")
	}
	d.emit("extractelement "+d.tval(v, ty)+", "+d.tval(i, ity), d.types[ty].elems[0], false)
}

// instInsertElt reads a FuncCodeInstInsertElt record.
func (d *decoder) instInsertElt(o *opr) {
	v, ty := o.vt()
	if d.types[ty].kind != tVector {
		d.failf("insertelement into a non-vector")
	}
	e := o.v()
	i, ity := o.vt()
	d.emit("insertelement "+d.tval(v, ty)+", "+d.tval(e, d.types[ty].elems[0])+", "+d.tval(i, ity), ty, false)
}

// instShuffleVec reads a FuncCodeInstShuffleVec record.
func (d *decoder) instShuffleVec(o *opr) {
	a, ty := o.vt()
	b := o.v()
	m, mty := o.vt()
	at, mt := d.types[ty], d.types[mty]
	if at.kind != tVector || mt.kind != tVector {
		d.failf("shufflevector of non-vectors")
	}
	res := d.derive(&typ{kind: tVector, n: mt.n, scalable: mt.scalable, elems: []int32{at.elems[0]}})
	d.emit("shufflevector "+d.tval(a, ty)+", "+d.tval(b, ty)+", "+d.tval(m, mty), res, false)
}

// instCmp reads a FuncCodeInstCmp, FuncCodeInstCmp2 record.
func (d *decoder) instCmp(o *opr) {
	a, ty := o.vt()
	b := o.v()
	pred := o.next()
	p, ok := predNames[pred]
	if !ok {
		d.failf("unknown predicate %d", pred)
	}
	fp := isFP(d.types[d.scalarOf(ty)].kind)
	op := "icmp"
	flags := ""
	if fp {
		op = "fcmp"
	}
	if o.more() {
		f := o.next()
		if fp {
			flags = fmfText(f)
		} else if f&1 != 0 {
			flags = " samesign"
		}
	}
	d.emit(op+flags+" "+p+" "+d.tval(a, ty)+", "+d.val(b, ty), d.withScalar(ty, d.intType(1)), false)
}

// instRet reads a FuncCodeInstRet record.
func (d *decoder) instRet(o *opr) {
	if !o.more() {
		d.emit("ret void", -1, true)
		return
	}
	v, ty := o.vt()
	if o.more() {
		d.failf("multiple-value return is not supported")
	}
	d.emit("ret "+d.tval(v, ty), -1, true)
}

// instBr reads a FuncCodeInstBr record.
func (d *decoder) instBr(o *opr) {
	t := o.next()
	if !o.more() {
		d.emit("br "+d.bbRef(t), -1, true)
		return
	}
	f := o.next()
	c := o.v()
	d.emit("br "+d.tval(c, d.intType(1))+", "+d.bbRef(t)+", "+d.bbRef(f), -1, true)
}

// instSwitch reads a FuncCodeInstSwitch record.
func (d *decoder) instSwitch(o *opr) {
	if len(o.ops) > 0 && o.ops[0]>>16 == 0x4B5 {
		d.failf("old-style switch records are not supported")
	}
	ty := o.ty()
	c := o.v()
	def := o.next()
	var sb strings.Builder
	sb.WriteString("switch " + d.tval(c, ty) + ", " + d.bbRef(def) + " [\n")
	for o.more() {
		cv := o.next()
		bb := o.next()
		if cv >= uint64(len(d.vals)) || d.vals[cv].kind != vConst {
			d.failf("switch case is not a constant")
		}
		sb.WriteString("    " + d.tstr(ty) + " " + d.constText(cv, ty) + ", " + d.bbRef(bb) + "\n")
	}
	sb.WriteString("  ]")
	d.emit(sb.String(), -1, true)
}

// instIndirectBr reads a FuncCodeInstIndirectBr record.
func (d *decoder) instIndirectBr(o *opr) {
	ty := o.ty()
	a := o.v()
	var sb strings.Builder
	sb.WriteString("indirectbr " + d.tval(a, ty) + ", [")
	for k := 0; o.more(); k++ {
		if k > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(d.bbRef(o.next()))
	}
	sb.WriteString("]")
	d.emit(sb.String(), -1, true)
}

// instInvoke reads a FuncCodeInstInvoke record.
func (d *decoder) instInvoke(o *opr) {
	attrs := d.attrList(o.next())
	cc := o.next()
	normal, unwind := o.next(), o.next()
	var fty int32 = -1
	if cc&(1<<13) != 0 {
		fty = o.ty()
	}
	text, ret := d.callBody(o, "invoke ", cc&^(1<<13), attrs, fty, "")
	d.emit(text+" to "+d.bbRef(normal)+" unwind "+d.bbRef(unwind), ret, true)
}

// instCallBr reads a FuncCodeInstCallBr record.
func (d *decoder) instCallBr(o *opr) {
	attrs := d.attrList(o.next())
	cc := o.next()
	normal := o.next()
	n := o.next()
	if n > uint64(len(o.ops)) {
		d.failf("bad callbr record")
	}
	var ind []string
	for range n {
		ind = append(ind, d.bbRef(o.next()))
	}
	var fty int32 = -1
	if cc&(1<<15) != 0 {
		fty = o.ty()
	}
	text, ret := d.callBody(o, "callbr ", (cc>>1)&0x3ff, attrs, fty, "")
	d.emit(text+" to "+d.bbRef(normal)+" ["+strings.Join(ind, ", ")+"]", ret, true)
}

// instCall reads a FuncCodeInstCall record.
func (d *decoder) instCall(o *opr) {
	attrs := d.attrList(o.next())
	cc := o.next()
	fmf := ""
	if cc&(1<<17) != 0 {
		fmf = fmfText(o.next())
	}
	var fty int32 = -1
	if cc&(1<<15) != 0 {
		fty = o.ty()
	}
	prefix := "call"
	switch {
	case cc&(1<<14) != 0:
		prefix = "musttail call"
	case cc&(1<<16) != 0:
		prefix = "notail call"
	case cc&1 != 0:
		prefix = "tail call"
	}
	text, ret := d.callBody(o, prefix+fmf+" ", (cc>>1)&0x3ff, attrs, fty, "")
	d.emit(text, ret, false)
}

// instResume reads a FuncCodeInstResume record.
func (d *decoder) instResume(o *opr) {
	v, ty := o.vt()
	d.emit("resume "+d.tval(v, ty), -1, true)
}

// instUnreachable reads a FuncCodeInstUnreachable record.
func (d *decoder) instUnreachable(o *opr) {
	d.emit("unreachable", -1, true)
}

// instLandingPad reads a FuncCodeInstLandingPad, FuncCodeInstLandingPadOld record.
func (d *decoder) instLandingPad(o *opr) {
	ty := o.ty()
	if d.Code == FuncCodeInstLandingPadOld {
		o.vt() // personality
	}
	cleanup := o.next()
	n := o.next()
	var sb strings.Builder
	sb.WriteString("landingpad " + d.tstr(ty))
	if cleanup != 0 {
		sb.WriteString("\n          cleanup")
	}
	for range n {
		k := o.next()
		v, vty := o.vt()
		if k == 0 {
			sb.WriteString("\n          catch " + d.tval(v, vty))
		} else {
			sb.WriteString("\n          filter " + d.tval(v, vty))
		}
	}
	d.emit(sb.String(), ty, false)
}

// instLoad reads a FuncCodeInstLoad, FuncCodeInstLoadAtomic record.
func (d *decoder) instLoad(o *opr) {
	p, pty := o.vt()
	atomic := d.Code == FuncCodeInstLoadAtomic
	extra := 2
	if atomic {
		extra = 4
	}
	var ty int32
	if o.i+extra+1 == len(o.ops) {
		ty = o.ty()
	} else {
		pt := d.types[pty]
		if pt.kind != tPtr || pt.elems == nil {
			d.failf("load without a type from an opaque pointer")
		}
		ty = pt.elems[0]
	}
	align := o.next()
	vol := o.next()
	s := "load "
	if atomic {
		s += "atomic "
	}
	if vol != 0 {
		s += "volatile "
	}
	s += d.tstr(ty) + ", " + d.tval(p, pty)
	if atomic {
		ord := o.next()
		s += d.syncScope(o.next()) + " " + d.ordering(ord)
	}
	d.emit(s+alignSuffix(align), ty, false)
}

// instStore reads a FuncCodeInstStore, FuncCodeInstStoreAtomic, FuncCodeInstStoreOld, FuncCodeInstStoreAtomicOld record.
func (d *decoder) instStore(o *opr) {
	p, pty := o.vt()
	var v uint32
	var vty int32
	if d.Code == FuncCodeInstStore || d.Code == FuncCodeInstStoreAtomic {
		v, vty = o.vt()
	} else {
		pt := d.types[pty]
		if pt.kind != tPtr || pt.elems == nil {
			d.failf("old-style store through an opaque pointer")
		}
		v, vty = o.v(), pt.elems[0]
	}
	align := o.next()
	vol := o.next()
	atomic := d.Code == FuncCodeInstStoreAtomic || d.Code == FuncCodeInstStoreAtomicOld
	s := "store "
	if atomic {
		s += "atomic "
	}
	if vol != 0 {
		s += "volatile "
	}
	s += d.tval(v, vty) + ", " + d.tval(p, pty)
	if atomic {
		ord := o.next()
		s += d.syncScope(o.next()) + " " + d.ordering(ord)
	}
	d.emit(s+alignSuffix(align), -1, false)
}

// instCmpXchg reads a FuncCodeInstCmpXchg, FuncCodeInstCmpXchgOld record.
func (d *decoder) instCmpXchg(o *opr) {
	p, pty := o.vt()
	var c uint32
	var cty int32
	if d.Code == FuncCodeInstCmpXchg {
		c, cty = o.vt()
	} else {
		pt := d.types[pty]
		if pt.kind != tPtr || pt.elems == nil {
			d.failf("old-style cmpxchg through an opaque pointer")
		}
		c, cty = o.v(), pt.elems[0]
	}
	n := o.v()
	vol := o.next()
	succ := o.next()
	ss := o.next()
	fail := succ
	if o.more() {
		fail = o.next()
	} else {
		switch succ { // LLVM's strongest failure ordering for a success ordering
		case 5:
			fail = 3
		case 4:
			fail = 2
		}
	}
	weak := uint64(0)
	if o.more() {
		weak = o.next()
	}
	s := "cmpxchg "
	if weak != 0 {
		s += "weak "
	}
	if vol != 0 {
		s += "volatile "
	}
	s += d.tval(p, pty) + ", " + d.tval(c, cty) + ", " + d.tval(n, cty) + d.syncScope(ss) + " " + d.ordering(succ) + " " + d.ordering(fail)
	if o.more() {
		s += alignSuffix(o.next())
	}
	res := d.derive(&typ{kind: tStruct, elems: []int32{cty, d.intType(1)}})
	d.emit(s, res, false)
}

// instAtomicRMW reads a FuncCodeInstAtomicRMW, FuncCodeInstAtomicRMWOld record.
func (d *decoder) instAtomicRMW(o *opr) {
	p, pty := o.vt()
	var v uint32
	var vty int32
	if d.Code == FuncCodeInstAtomicRMW {
		v, vty = o.vt()
	} else {
		pt := d.types[pty]
		if pt.kind != tPtr || pt.elems == nil {
			d.failf("old-style atomicrmw through an opaque pointer")
		}
		v, vty = o.v(), pt.elems[0]
	}
	op := o.next()
	if op >= uint64(len(rmwOps)) {
		d.failf("unknown atomicrmw operation %d", op)
	}
	vol := o.next()
	ord := o.next()
	ss := o.next()
	s := "atomicrmw "
	if vol != 0 {
		s += "volatile "
	}
	s += rmwOps[op] + " " + d.tval(p, pty) + ", " + d.tval(v, vty) + d.syncScope(ss) + " " + d.ordering(ord)
	if o.more() {
		s += alignSuffix(o.next())
	}
	d.emit(s, vty, false)
}

// instFence reads a FuncCodeInstFence record.
func (d *decoder) instFence(o *opr) {
	ord := o.next()
	ss := o.next()
	d.emit("fence"+d.syncScope(ss)+" "+d.ordering(ord), -1, false)
}

// instVAArg reads a FuncCodeInstVAArg record.
func (d *decoder) instVAArg(o *opr) {
	lty := o.ty()
	l := o.v()
	rty := o.ty()
	d.emit("va_arg "+d.tval(l, lty)+", "+d.tstr(rty), rty, false)
}

// instFreeze reads a FuncCodeInstFreeze record.
func (d *decoder) instFreeze(o *opr) {
	v, ty := o.vt()
	d.emit("freeze "+d.tval(v, ty), ty, false)
}

// instCleanupRet reads a FuncCodeInstCleanupRet record.
func (d *decoder) instCleanupRet(o *opr) {
	pad := o.v()
	s := "cleanupret from " + d.val(pad, d.tokenType()) + " unwind "
	if o.more() {
		s += d.bbRef(o.next())
	} else {
		s += "to caller"
	}
	d.emit(s, -1, true)
}

// instCatchRet reads a FuncCodeInstCatchRet record.
func (d *decoder) instCatchRet(o *opr) {
	pad := o.v()
	d.emit("catchret from "+d.val(pad, d.tokenType())+" to "+d.bbRef(o.next()), -1, true)
}

// instCatchSwitch reads a FuncCodeInstCatchSwitch record.
func (d *decoder) instCatchSwitch(o *opr) {
	parent := o.v()
	n := o.next()
	if n > uint64(len(o.ops)) {
		d.failf("bad catchswitch record")
	}
	var hs []string
	for range n {
		hs = append(hs, d.bbRef(o.next()))
	}
	s := "catchswitch within " + d.val(parent, d.tokenType()) + " [" + strings.Join(hs, ", ") + "] unwind "
	if o.more() {
		s += d.bbRef(o.next())
	} else {
		s += "to caller"
	}
	d.emit(s, d.tokenType(), true)
}

// instCatchPad reads a FuncCodeInstCatchPad, FuncCodeInstCleanupPad record.
func (d *decoder) instCatchPad(o *opr) {
	parent := o.v()
	n := o.next()
	var args []string
	for range n {
		v, ty := o.vt()
		args = append(args, d.tval(v, ty))
	}
	name := "catchpad"
	if d.Code == FuncCodeInstCleanupPad {
		name = "cleanuppad"
	}
	d.emit(name+" within "+d.val(parent, d.tokenType())+" ["+strings.Join(args, ", ")+"]", d.tokenType(), false)
}

// operandBundle reads a FuncCodeOperandBundle record.
func (d *decoder) operandBundle(o *opr) {
	fs := d.fn
	tag := o.next()
	if tag >= uint64(len(d.bundleTags)) {
		d.failf("operand bundle tag %d out of range", tag)
	}
	var args []string
	for o.more() {
		if o.ops[o.i] == 0x80000000 {
			o.next()
			args = append(args, "metadata "+d.mdRef(o.next(), false))
			continue
		}
		v, ty := o.vt()
		args = append(args, d.tval(v, ty))
	}
	fs.bundles = append(fs.bundles, quoteString(d.bundleTags[tag])+"("+strings.Join(args, ", ")+")")
}

// debugLocAgain reads a FuncCodeDebugLocAgain record.
func (d *decoder) debugLocAgain(o *opr) {
	fs := d.fn
	if fs.lastLoc == "" {
		d.failf("DEBUG_LOC_AGAIN without a previous location")
	}
	d.lastInst().dbg = fs.lastLoc
	d.lastInst().dbgGid = fs.lastLocGid
}

// blockAddrUsers reads a FuncCodeBlockAddrUsers record: the functions
// whose blockaddress constants name this one's blocks, which the text does
// not show.
func (d *decoder) blockAddrUsers(*opr) {}

func (d *decoder) gep(o *opr) {
	flags := o.next()
	pointee := o.ty()
	base, bty := o.vt()
	var sb strings.Builder
	sb.WriteString("getelementptr" + gepFlags(flags) + " " + d.tstr(pointee) + ", " + d.tval(base, bty))
	cur := pointee
	vecN, vecScalable := uint64(0), false
	if t := d.types[bty]; t.kind == tVector {
		vecN, vecScalable = t.n, t.scalable
	}
	for k := 0; o.more(); k++ {
		v, ty := o.vt()
		sb.WriteString(", " + d.tval(v, ty))
		if t := d.types[ty]; t.kind == tVector {
			vecN, vecScalable = t.n, t.scalable
		}
		if k == 0 || !d.typed {
			continue
		}
		t := d.types[cur]
		switch t.kind {
		case tStruct:
			idx, ok := d.intValue(uint64(v))
			if !ok || idx < 0 || idx >= int64(len(t.elems)) {
				d.failf("struct index is not a constant in range")
			}
			cur = t.elems[idx]
		case tArray, tVector:
			cur = t.elems[0]
		default:
			d.failf("GEP index into %s", t.str)
		}
	}
	as := uint64(0)
	if pt := d.types[d.scalarOf(bty)]; pt.kind == tPtr {
		as = pt.n
	} else {
		d.failf("GEP base is not a pointer")
	}
	res := d.ptrTo(cur, as)
	if vecN != 0 {
		res = d.derive(&typ{kind: tVector, n: vecN, scalable: vecScalable, elems: []int32{res}})
	}
	d.emit(sb.String(), res, false)
}

func (d *decoder) phi(o *opr) {
	ty := o.ty()
	n := len(o.ops) - 1
	var flags string
	if n%2 == 1 {
		flags = fmfText(o.ops[len(o.ops)-1])
		o.ops = o.ops[:len(o.ops)-1]
	}
	var sb strings.Builder
	sb.WriteString("phi" + flags + " " + d.tstr(ty) + " ")
	for k := 0; o.more(); k++ {
		raw := o.next()
		var id uint32
		if d.version >= 1 {
			id = uint32(int64(len(d.vals)) - int64(decodeSigned(raw)))
		} else {
			id = uint32(raw)
		}
		bb := o.next()
		if k > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("[ " + d.val(id, ty) + ", " + d.bbName(bb) + " ]")
	}
	d.emit(sb.String(), ty, false)
}

func (d *decoder) alloca(o *opr) {
	if len(o.ops) != 4 && len(o.ops) != 5 {
		d.failf("bad alloca record")
	}
	ty := d.tyID(o.ops[0])
	opty := d.tyID(o.ops[1])
	size := o.ops[2]
	rec := o.ops[3]
	if rec&(1<<6) == 0 { // type is the pointer's
		t := d.types[ty]
		if t.kind != tPtr || t.elems == nil {
			d.failf("old-style alloca without a pointee type")
		}
		ty = t.elems[0]
	}
	align := rec&31 | (rec>>8&7)<<5
	as := d.allocaAS()
	if len(o.ops) == 5 {
		as = o.ops[4]
	}
	s := "alloca "
	if rec&(1<<5) != 0 {
		s += "inalloca "
	}
	if rec&(1<<7) != 0 {
		s += "swifterror "
	}
	s += d.tstr(ty)
	if size >= uint64(len(d.vals)) {
		d.failf("alloca size %d out of range", size)
	}
	if v, ok := d.intValue(size); !(ok && v == 1 && d.types[opty].kind == tInt && d.types[opty].n == 32) {
		s += ", " + d.tval(uint32(size), opty)
	}
	s += alignSuffix(align)
	if as != 0 {
		s += ", addrspace(" + strconv.FormatUint(as, 10) + ")"
	}
	d.emit(s, d.ptrTo(ty, as), false)
}

// callBody renders "<prefix>[cc ][ret attrs ]<type> <callee>(<args>)[ #N][ bundles]"
// of a call, invoke or callbr, and returns it with the result type.
func (d *decoder) callBody(o *opr, prefix string, cc uint64, attrs []*attrGroup, fty int32, _ string) (string, int32) {
	callee, cty := o.vt()
	if fty < 0 {
		t := d.types[cty]
		if t.kind != tPtr || t.elems == nil {
			d.failf("call without a function type through an opaque pointer")
		}
		fty = t.elems[0]
	}
	ft := d.types[fty]
	if ft.kind != tFunc {
		d.failf("call of a non-function type")
	}
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteString(ccText(cc))
	if a := d.attrsAt(attrs, 0); a != "" {
		sb.WriteString(a + " ")
	}
	ret := ft.elems[0]
	rt := d.types[ret]
	if ft.vararg || (rt.kind == tPtr && rt.elems != nil && d.types[rt.elems[0]].kind == tFunc) {
		sb.WriteString(ft.str)
	} else {
		sb.WriteString(rt.str)
	}
	sb.WriteString(" " + d.val(callee, cty) + "(")
	d.callArgs(&sb, o, callee, ft, attrs)
	sb.WriteString(")")
	sb.WriteString(d.fnAttrRef(attrs))
	if g := fnGroup(attrs); g != nil {
		d.fn.g.callGroups = append(d.fn.g.callGroups, g)
	}
	if len(d.fn.bundles) > 0 {
		sb.WriteString(" [ " + strings.Join(d.fn.bundles, ", ") + " ]")
		d.fn.bundles = d.fn.bundles[:0]
	}
	return sb.String(), ret
}

// callArgs writes a call's arguments: one per parameter of its function
// type ft, then a vararg call's further arguments.
func (d *decoder) callArgs(sb *strings.Builder, o *opr, callee uint32, ft *typ, attrs []*attrGroup) {
	for i := 1; i < len(ft.elems); i++ {
		if i > 1 {
			sb.WriteString(", ")
		}
		pt := ft.elems[i]
		var arg string
		if d.types[pt].kind == tLabel {
			arg = d.bbName(o.next())
			sb.WriteString("label")
		} else {
			id := o.v()
			arg = d.val(id, pt)
			sb.WriteString(d.tstr(pt))
			if d.types[pt].kind == tMetadata && d.isIntrinsic(callee) {
				if r := d.rootOf(uint64(id)); r >= 0 {
					d.fn.argRoots = append(d.fn.argRoots, r)
				}
			}
		}
		if a := d.attrsAt(attrs, uint64(i)); a != "" {
			sb.WriteString(" " + a)
		}
		sb.WriteString(" " + arg)
	}
	if !ft.vararg {
		if o.more() {
			d.failf("call has more arguments than its function type")
		}
		return
	}
	for i := len(ft.elems); o.more(); i++ {
		if i > 1 {
			sb.WriteString(", ")
		}
		v, ty := o.vt()
		sb.WriteString(d.tstr(ty))
		if a := d.attrsAt(attrs, uint64(i)); a != "" {
			sb.WriteString(" " + a)
		}
		sb.WriteString(" " + d.val(v, ty))
	}
}

// isIntrinsic reports whether value id is a function named "llvm.*".
func (d *decoder) isIntrinsic(id uint32) bool {
	if uint64(id) >= uint64(len(d.vals)) || d.vals[id].kind != vGlobal {
		return false
	}
	g := d.globals[d.vals[id].idx]
	return g.kind == gFunc && strings.HasPrefix(g.name, "llvm.")
}

func (d *decoder) debugLoc(o *opr) {
	line, col := o.next(), o.next()
	scope, ia := o.next(), o.next()
	var implicit, group, rank uint64
	if o.more() {
		implicit = o.next()
	}
	if o.more() {
		group = o.next()
	}
	if o.more() {
		rank = o.next()
	}
	if scope == 0 {
		d.failf("debug location without a scope")
	}
	sg := d.nodeGID(scope - 1)
	var ig int32 = -1
	if ia != 0 {
		ig = d.nodeGID(ia - 1)
	}
	// Function-scope ids are reused by the next function: key by node.
	key := dilocKey{line, col, uint64(sg), uint64(ig + 1), implicit, group, rank}
	gid, ok := d.locs[key]
	if !ok {
		f := &fields{d: d}
		f.raw("line", strconv.FormatUint(line, 10))
		f.uint("column", col)
		f.raw("scope", d.mdRef(scope-1, true))
		f.md("inlinedAt", ia)
		f.boolean("isImplicitCode", implicit)
		f.uint("atomGroup", group)
		f.uint("atomRank", rank)
		e := &mdEntry{kind: mdNodeKind, code: MetadataLocation, num: -1, gid: int32(len(d.allMD)),
			text: "!DILocation(" + f.sb.String() + ")", done: true, kids: []int32{sg}}
		if ig >= 0 {
			e.kids = append(e.kids, ig)
		}
		d.charge(len(e.text))
		d.allMD = append(d.allMD, e)
		gid = e.gid
		d.locs[key] = gid
	}
	loc := ", !dbg " + mdMarker(gid)
	d.fn.lastLoc, d.fn.lastLocGid = loc, gid
	d.lastInst().dbg = loc
	d.lastInst().dbgGid = gid
}

// nodeGID returns the global index of node id.
func (d *decoder) nodeGID(id uint64) int32 {
	e := d.md(id)
	if e.kind != mdNodeKind {
		d.failf("metadata %d is not a node", id)
	}
	return e.gid
}

// rootOf returns the node of metadata id for numbering, -1 if none.
func (d *decoder) rootOf(id uint64) int32 {
	if e := d.md(id); e.kind == mdNodeKind {
		return e.gid
	}
	return -1
}

func (d *decoder) debugRecord(o *opr) {
	loc := o.next()
	var s string
	var roots []int32
	switch d.Code {
	case FuncCodeDebugRecordLabel:
		label := o.next()
		s = "#dbg_label(" + d.mdRef(label, false) + ", " + d.mdRef(loc, false) + ")"
		roots = []int32{d.rootOf(label)}
	case FuncCodeDebugRecordValueSimple:
		v, e := o.next(), o.next()
		val, ty := o.vt()
		s = "#dbg_value(" + d.tval(val, ty) + ", " + d.mdRef(v, false) + ", " + d.mdRef(e, false) + ", " + d.mdRef(loc, false) + ")"
		roots = []int32{d.rootOf(v)}
	default:
		v, e, val := o.next(), o.next(), o.next()
		name := map[uint64]string{FuncCodeDebugRecordValue: "#dbg_value", FuncCodeDebugRecordDeclare: "#dbg_declare",
			FuncCodeDebugRecordAssign: "#dbg_assign", FuncCodeDebugRecordDeclareValue: "#dbg_declare_value"}[d.Code]
		s = name + "(" + d.locationMD(val) + ", " + d.mdRef(v, false) + ", " + d.mdRef(e, false)
		roots = []int32{d.rootOf(val), d.rootOf(v)}
		if d.Code == FuncCodeDebugRecordAssign {
			id, addrExpr, addr := o.next(), o.next(), o.next()
			s += ", " + d.mdRef(id, false) + ", " + d.locationMD(addr) + ", " + d.mdRef(addrExpr, false)
			roots = append(roots, d.rootOf(id))
		}
		s += ", " + d.mdRef(loc, false) + ")"
	}
	roots = append(roots, d.rootOf(loc))
	last := d.lastInst()
	last.pre = append(last.pre, s)
	last.roots = append(last.roots, roots...)
}

// locationMD renders a debug record's location operand: a value, a
// DIArgList, or an empty node.
func (d *decoder) locationMD(id uint64) string {
	e := d.md(id)
	if e.kind == mdNodeKind && e.code == MetadataNode && len(e.ops) == 0 {
		return "!{}"
	}
	return d.mdRef(id, false)
}

// finishFunction numbers the unnamed locals, resolves the markers and
// stores the body text.
func (d *decoder) finishFunction() {
	fs := d.fn
	if fs.nBlocks == 0 {
		d.failf("function body without blocks")
	}
	if fs.curBB != fs.nBlocks {
		d.failf("function declares %d blocks but terminates %d", fs.nBlocks, fs.curBB)
	}
	ln := d.nameLocals(fs)
	// Every function's labels are kept: a blockaddress that names them
	// may come in a later function's constants.
	if d.blockNames == nil {
		d.blockNames = map[int32][]string{}
	}
	d.blockNames[fs.g.id] = ln.bbs
	body := d.functionBody(fs, &ln)
	fs.g.body = body
	for i := 0; i < ln.nargs; i++ {
		fs.g.argText = append(fs.g.argText, ln.local[i])
	}
	// Function attachments and the function's own metadata nodes.
	fs.g.attach = nil
	if fs.fnAttach != "" {
		fs.g.fnAttach = string(d.resolveLocals(&ln, nil, []byte(fs.fnAttach)))
	}
	d.numberFunctionMetadata(fs, &ln)
	d.charge(len(body))
}

// localNames are the names of a function's locals and blocks, as the
// body's text prints them.
type localNames struct {
	local      []string // "%name" or "%N" of each local value, by id past firstLocal
	bbs        []string // each block's name without the "%"
	firstLocal uint32   // the value id of the first local
	nargs      int      // the number of arguments (the first locals)
}

// nameLocals names the arguments, blocks and instruction results of the
// function, numbering the unnamed ones in order as LLVM does.
func (d *decoder) nameLocals(fs *funcState) localNames {
	ln := localNames{
		local:      make([]string, len(d.vals)-int(fs.firstLocal)),
		bbs:        make([]string, fs.nBlocks),
		firstLocal: fs.firstLocal,
		nargs:      len(d.types[fs.g.valTy].elems) - 1,
	}
	local, bbs := ln.local, ln.bbs
	num := 0
	for i := 0; i < ln.nargs; i++ {
		if name := fs.name(fs.firstLocal + uint32(i)); name != "" {
			local[i] = name
		} else {
			local[i] = "%" + strconv.Itoa(num)
			num++
		}
	}
	k := 0
	for bb := 0; bb < fs.nBlocks; bb++ {
		if name := fs.bbName(bb); name != "" {
			bbs[bb] = quoteName(name)
		} else {
			bbs[bb] = strconv.Itoa(num)
			num++
		}
		for ; k < len(fs.insts) && fs.insts[k].bb == bb; k++ {
			r := fs.insts[k].result
			if r < 0 {
				continue
			}
			li := int(r) - int(fs.firstLocal)
			if name := fs.name(uint32(r)); name != "" {
				local[li] = name
			} else {
				local[li] = "%" + strconv.Itoa(num)
				num++
			}
		}
	}
	return ln
}

// resolveLocals appends src to dst with the markers of locals and blocks
// replaced by their names; constants of the function have no names,
// locals do. The module's markers are kept for the module's end.
func (d *decoder) resolveLocals(ln *localNames, dst, src []byte) []byte {
	for {
		i := indexMarker(src)
		if i < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:i]...)
		if i+5 > len(src) {
			d.failf("internal: truncated marker")
		}
		id := binary.LittleEndian.Uint32(src[i+1:])
		switch src[i] {
		case markVal:
			li := int64(id) - int64(ln.firstLocal)
			if li < 0 || li >= int64(len(ln.local)) || ln.local[li] == "" {
				d.failf("reference to undefined value %d", id)
			}
			dst = append(dst, ln.local[li]...)
		case markBlock:
			dst = append(dst, '%')
			dst = append(dst, ln.bbs[id]...)
		default: // resolved at the module's end
			n := markerLen(src[i])
			if i+n > len(src) {
				d.failf("internal: truncated marker")
			}
			dst = append(dst, src[i:i+n]...)
			src = src[i+n:]
			continue
		}
		src = src[i+5:]
	}
}

// functionBody renders the function's blocks: labels, debug records and
// instructions with their results, locations and attachments.
func (d *decoder) functionBody(fs *funcState, ln *localNames) []byte {
	var body []byte
	k := 0
	for bb := 0; bb < fs.nBlocks; bb++ {
		if bb > 0 || fs.bbName(bb) != "" {
			if bb > 0 {
				body = append(body, '\n')
			}
			body = append(body, ln.bbs[bb]...)
			body = append(body, ":\n"...)
		}
		for ; k < len(fs.insts) && fs.insts[k].bb == bb; k++ {
			r := &fs.insts[k]
			for _, p := range r.pre {
				body = append(body, "    "...)
				body = d.resolveLocals(ln, body, []byte(p))
				body = append(body, '\n')
			}
			body = append(body, "  "...)
			if r.result >= 0 {
				body = append(body, ln.local[int(r.result)-int(fs.firstLocal)]...)
				body = append(body, " = "...)
			}
			body = d.resolveLocals(ln, body, fs.buf[r.start:r.end])
			body = append(body, r.dbg...)
			body = d.resolveLocals(ln, body, []byte(r.attach))
			body = append(body, '\n')
		}
	}
	return body
}

// numberFunctionMetadata numbers the metadata as SlotTracker does when it
// reaches this function: the module's first, then the declarations before
// it, then its attachments and its instructions' metadata; then it renders
// the function's own metadata nodes.
func (d *decoder) numberFunctionMetadata(fs *funcState, ln *localNames) {
	d.numberModule()
	d.numberDeclsBefore(fs.g.id)
	d.numberAttachments(fs.fnAttachs)
	for i := range fs.insts {
		r := &fs.insts[i]
		for _, g := range r.roots {
			if g >= 0 {
				d.number(g)
			}
		}
		if r.dbgGid >= 0 {
			d.number(r.dbgGid)
		}
		d.numberAttachments(r.attachs)
	}
	d.renderMetadata(fs.mdStart, len(d.mds))
	for _, e := range d.mds[fs.mdStart:] {
		if e.kind == mdNodeKind {
			d.number(e.gid)
			if bytes.IndexByte([]byte(e.text), markVal) >= 0 || bytes.IndexByte([]byte(e.text), markBlock) >= 0 {
				e.text = string(d.resolveLocals(ln, nil, []byte(e.text)))
			}
		}
	}
}

func indexMarker(b []byte) int {
	for i, c := range b {
		if c <= maxMark {
			return i
		}
	}
	return -1
}
