package bitcode

import (
	"math/big"
	"strconv"
	"strings"
)

// constant is a CONSTANTS_BLOCK entry, rendered on first use (elements
// may refer forward).
type constant struct {
	code   uint8
	ty     int32
	ops    []uint64
	text   string
	state  uint8 // 0 new, 1 rendering, 2 rendered
	isInt  bool
	ival   int64 // the value of an integer constant
	recPos int64
}

// newConstant returns a copy of c from a slab: a module holds constants
// by the hundred thousand, and one allocation each was a fifth of the
// decoder's.
func (d *decoder) newConstant(c constant) *constant {
	if len(d.constSlab) == cap(d.constSlab) {
		d.constSlab = make([]constant, 0, 256)
	}
	d.constSlab = append(d.constSlab, c)
	return &d.constSlab[len(d.constSlab)-1]
}

// keepOps returns a copy of a record's operands, from a slab.
func (d *decoder) keepOps(ops []uint64) []uint64 {
	if len(ops) > cap(d.opSlab)-len(d.opSlab) {
		d.opSlab = make([]uint64, 0, max(4096, len(ops)))
	}
	n := len(d.opSlab)
	d.opSlab = append(d.opSlab, ops...)
	return d.opSlab[n:len(d.opSlab):len(d.opSlab)]
}

var binopNames = [...]string{"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"}
var fbinopNames = [...]string{"fadd", "fsub", "fmul", "", "fdiv", "", "frem"}
var castNames = [...]string{"trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast", "ptrtoaddr"}

var predNames = map[uint64]string{
	0: "false", 1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 7: "ord",
	8: "uno", 9: "ueq", 10: "ugt", 11: "uge", 12: "ult", 13: "ule", 14: "une", 15: "true",
	32: "eq", 33: "ne", 34: "ugt", 35: "uge", 36: "ult", 37: "ule", 38: "sgt", 39: "sge",
	40: "slt", 41: "sle",
}

// parseConstants reads a CONSTANTS_BLOCK (its id read), appending to the
// value table.
func (d *decoder) parseConstants() {
	b := d.EnterBlock(ConstantsBlockID)
	cur := int32(-1)
	for d.NextRecord(b) {
		if d.Code == CstCodeSetType {
			if len(d.Ops) < 1 {
				d.failf("bad SETTYPE")
			}
			cur = d.tyID(d.Ops[0])
			if k := d.types[cur].kind; k == tVoid || k == tFunc || k == tLabel || k == tMetadata {
				d.failf("constant of type %s", d.types[cur].str)
			}
			continue
		}
		if cur < 0 {
			cur = d.intType(32)
		}
		if d.Code > CstCodePtrAuth2 || d.Code == CstCodeSetType {
			d.failf("unknown record code %d", d.Code)
		}
		c := d.newConstant(constant{code: uint8(d.Code), ty: cur, ops: d.keepOps(d.Ops), recPos: d.RecPos})
		switch d.Code {
		case CstCodeInteger:
			if len(d.Ops) < 1 {
				d.failf("bad integer constant")
			}
			if d.types[d.scalarOf(cur)].kind != tInt {
				d.failf("integer constant of type %s", d.types[cur].str)
			}
			c.isInt, c.ival = true, int64(decodeSigned(d.Ops[0]))
		case CstCodeNull:
			if d.types[cur].kind == tInt {
				c.isInt = true
			}
		}
		d.consts = append(d.consts, c)
		d.vals = append(d.vals, value{ty: cur, kind: vConst, idx: int32(len(d.consts) - 1)})
	}
	d.Leave()
}

// intValue returns the value of an integer constant (ok false when id is
// not one).
func (d *decoder) intValue(id uint64) (int64, bool) {
	if id >= uint64(len(d.vals)) || d.vals[id].kind != vConst {
		return 0, false
	}
	c := d.consts[d.vals[id].idx]
	return c.ival, c.isInt && d.types[c.ty].kind == tInt
}

// valText renders value id (absolute) without its type. ty is the type
// the use expects (for a forward reference).
func (d *decoder) constText(id uint64, ty int32) string {
	if id >= uint64(len(d.vals)) {
		if d.fn != nil && id < 1<<32 {
			return d.localRef(uint32(id)) // defined later in the body
		}
		d.failf("value %d out of range", id)
	}
	v := d.vals[id]
	switch v.kind {
	case vGlobal:
		return d.globalRef(d.globals[v.idx])
	case vConst:
		// Each use copies the text: count it, so that a constant used
		// many times by constants used many times cannot grow the output
		// without bound.
		s := d.renderConst(d.consts[v.idx])
		d.charge(len(s))
		return s
	}
	return d.localRef(uint32(id))
}

// typedConst renders "ty value" for value id.
func (d *decoder) typedConst(id uint64) string {
	if id >= uint64(len(d.vals)) {
		d.failf("value %d out of range", id)
	}
	return d.tstr(d.vals[id].ty) + " " + d.constText(id, d.vals[id].ty)
}

const maxDepth = 1000

func (d *decoder) renderConst(c *constant) string {
	switch c.state {
	case 2:
		return c.text
	case 1:
		d.RecPos = c.recPos
		d.failf("constant refers to itself")
	}
	d.depth++
	if d.depth > maxDepth {
		d.RecPos = c.recPos
		d.failf("constants nested deeper than %d", maxDepth)
	}
	c.state = 1
	savePos, saveCode := d.RecPos, d.RecCode
	d.RecPos, d.RecCode = c.recPos, int64(c.code)
	c.text = d.constBody(c)
	d.charge(len(c.text))
	d.RecPos, d.RecCode = savePos, saveCode
	c.state = 2
	d.depth--
	return c.text
}

// constBody renders constant c's text, each record kind (or family of
// kinds) by its own method.
func (d *decoder) constBody(c *constant) string {
	t := d.types[c.ty]
	switch c.code {
	case CstCodeNull:
		return nullText(t)
	case CstCodeUndef:
		return "undef"
	case CstCodePoison:
		return "poison"
	case CstCodeInteger, CstCodeWideInteger, CstCodeFloat:
		return d.numberConst(c, t)
	case CstCodeAggregate:
		return d.aggregate(t, c.ops)
	case CstCodeString, CstCodeCString:
		return stringConst(c)
	case CstCodeData:
		return d.dataText(t, c.ops)
	case CstCodeCEUnop:
		return d.unopConst(c)
	case CstCodeCEBinop:
		return d.binopConst(c)
	case CstCodeCECast:
		return d.castConst(c, t)
	case CstCodeCEGEPOld, CstCodeCEInboundsGEP, CstCodeCEGEPWithInRangeIndexOld, CstCodeCEGEP, CstCodeCEGEPWithInRange:
		return d.constGEP(c)
	case CstCodeCESelect, CstCodeCEExtractElt, CstCodeCEInsertElt, CstCodeCEShuffleVec, CstCodeCEShufVecEx:
		return d.vectorConst(c)
	case CstCodeCECmp:
		return d.cmpConst(c)
	case CstCodeBlockAddress:
		return d.blockAddressConst(c)
	case CstCodeDSOLocalEquivalent:
		d.needConstOps(c.ops, 2)
		return "dso_local_equivalent " + d.constText(c.ops[1], 0)
	case CstCodeNoCFIValue:
		d.needConstOps(c.ops, 2)
		return "no_cfi " + d.constText(c.ops[1], 0)
	case CstCodePtrAuth, CstCodePtrAuth2:
		return d.ptrAuthConst(c)
	case CstCodeInlineAsm, CstCodeInlineAsmOld3, CstCodeInlineAsmOld2, CstCodeInlineAsmOld:
		return d.inlineAsmConst(c)
	}
	d.failf("unknown record code %d", c.code)
	return ""
}

// needConstOps fails unless a constant record has at least n operands.
func (d *decoder) needConstOps(ops []uint64, n int) {
	if len(ops) < n {
		d.failf("constant record too short")
	}
}

// nullText renders a NULL record: the zero value of type t.
func nullText(t *typ) string {
	switch {
	case t.kind == tInt:
		if t.n == 1 {
			return "false"
		}
		return "0"
	case isFP(t.kind):
		return floatText(t.kind, []uint64{0, 0})
	case t.kind == tPtr:
		return "null"
	case t.kind == tToken:
		return "none"
	}
	return "zeroinitializer"
}

// numberConst renders an INTEGER, WIDE_INTEGER or FLOAT record, a vector
// one as a splat.
func (d *decoder) numberConst(c *constant, t *typ) string {
	ops := c.ops
	d.needConstOps(ops, 1)
	st := d.types[d.scalarOf(c.ty)]
	var s string
	switch {
	case c.code == CstCodeFloat:
		if !isFP(st.kind) {
			d.failf("float constant of type %s", t.str)
		}
		s = floatText(st.kind, ops)
	case st.kind != tInt:
		d.failf("integer constant of type %s", t.str)
	case c.code == CstCodeInteger:
		s = intText(decodeSigned(ops[0]), st.n)
	case st.n == 1:
		s = intText(decodeSigned(ops[0]), 1)
	default:
		s = wideIntText(ops, st.n)
	}
	if t.kind == tVector {
		return "splat (" + st.str + " " + s + ")"
	}
	return s
}

// stringConst renders a STRING or CSTRING record as c"...".
func stringConst(c *constant) string {
	var sb strings.Builder
	sb.WriteString("c\"")
	escapeInto(&sb, opsString(c.ops))
	if c.code == CstCodeCString {
		sb.WriteString("\\00")
	}
	sb.WriteString("\"")
	return sb.String()
}

// unopConst renders a CE_UNOP record (fneg).
func (d *decoder) unopConst(c *constant) string {
	ops := c.ops
	d.needConstOps(ops, 2)
	if ops[0] != 0 {
		d.failf("unknown unary opcode %d", ops[0])
	}
	return "fneg (" + d.typedConst(ops[1]) + ")"
}

// binopConst renders a CE_BINOP record: opcode, operands, then flags.
func (d *decoder) binopConst(c *constant) string {
	ops := c.ops
	d.needConstOps(ops, 3)
	name := d.binopName(ops[0], c.ty)
	flags := ""
	if len(ops) > 3 {
		flags = binopFlags(ops[0], ops[3], isFP(d.types[d.scalarOf(c.ty)].kind))
	}
	return name + flags + " (" + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ")"
}

// castConst renders a CE_CAST record: opcode, operand type, operand.
func (d *decoder) castConst(c *constant, t *typ) string {
	ops := c.ops
	d.needConstOps(ops, 3)
	if ops[0] >= uint64(len(castNames)) {
		d.failf("unknown cast opcode %d", ops[0])
	}
	d.tyID(ops[1])
	return castNames[ops[0]] + " (" + d.typedConst(ops[2]) + " to " + t.str + ")"
}

// vectorConst renders the select, extractelement, insertelement and
// shufflevector records.
func (d *decoder) vectorConst(c *constant) string {
	ops := c.ops
	switch c.code {
	case CstCodeCESelect:
		d.needConstOps(ops, 3)
		return "select (" + d.typedConst(ops[0]) + ", " + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ")"
	case CstCodeCEExtractElt:
		d.needConstOps(ops, 3)
		idx := ops[2]
		if len(ops) >= 4 {
			idx = ops[3]
		}
		return "extractelement (" + d.typedConst(ops[1]) + ", " + d.typedConst(idx) + ")"
	case CstCodeCEInsertElt:
		d.needConstOps(ops, 3)
		idx := ops[2]
		if len(ops) >= 4 {
			idx = ops[3]
		}
		return "insertelement (" + d.typedConst(ops[0]) + ", " + d.typedConst(ops[1]) + ", " + d.typedConst(idx) + ")"
	case CstCodeCEShuffleVec:
		d.needConstOps(ops, 3)
		return "shufflevector (" + d.typedConst(ops[0]) + ", " + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ")"
	}
	// CstCodeCEShufVecEx: the operand type first.
	d.needConstOps(ops, 4)
	return "shufflevector (" + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ", " + d.typedConst(ops[3]) + ")"
}

// cmpConst renders a CE_CMP record: operand type, operands, predicate.
func (d *decoder) cmpConst(c *constant) string {
	ops := c.ops
	d.needConstOps(ops, 4)
	ot := d.types[d.scalarOf(d.tyID(ops[0]))]
	op := "icmp "
	if isFP(ot.kind) {
		op = "fcmp "
	}
	p, ok := predNames[ops[3]]
	if !ok {
		d.failf("unknown predicate %d", ops[3])
	}
	return op + p + " (" + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ")"
}

// blockAddressConst renders a BLOCKADDRESS record: function type,
// function, block number (the block's name is filled in later).
func (d *decoder) blockAddressConst(c *constant) string {
	ops := c.ops
	d.needConstOps(ops, 3)
	if ops[1] >= uint64(len(d.vals)) || d.vals[ops[1]].kind != vGlobal {
		d.failf("blockaddress of a non-function")
	}
	return "blockaddress(" + d.constText(ops[1], 0) + ", " + blockRefMarker(uint32(ops[1]), uint32(ops[2])) + ")"
}

// ptrAuthConst renders a PTRAUTH or PTRAUTH2 record.
func (d *decoder) ptrAuthConst(c *constant) string {
	ops := c.ops
	d.needConstOps(ops, 4)
	s := "ptrauth (" + d.typedConst(ops[0]) + ", " + d.typedConst(ops[1]) + ", " + d.typedConst(ops[2]) + ", " + d.typedConst(ops[3])
	if c.code == CstCodePtrAuth2 && len(ops) > 4 {
		s += ", " + d.typedConst(ops[4])
	}
	return s + ")"
}

// inlineAsmConst renders an INLINEASM record of any version: (function
// type,) flags, the asm string, the constraints.
func (d *decoder) inlineAsmConst(c *constant) string {
	ops := c.ops
	i := 0
	if c.code == CstCodeInlineAsm {
		d.needConstOps(ops, 1)
		d.tyID(ops[0])
		i = 1
	}
	d.needConstOps(ops, i+2)
	flags := ops[i]
	n := ops[i+1]
	if n > uint64(len(ops)-i-2) {
		d.failf("bad inline asm record")
	}
	asm := opsString(ops[i+2 : i+2+int(n)])
	j := i + 2 + int(n)
	d.needConstOps(ops, j+1)
	m := ops[j]
	if m > uint64(len(ops)-j-1) {
		d.failf("bad inline asm record")
	}
	cons := opsString(ops[j+1 : j+1+int(m)])
	return "asm " + asmFlags(c.code, flags) + quoteString(asm) + ", " + quoteString(cons)
}

// asmFlags renders an inline asm's flags (each with a space after) as the
// record version code has them.
func asmFlags(code uint8, flags uint64) string {
	s := ""
	if flags&1 != 0 {
		s += "sideeffect "
	}
	if flags&2 != 0 {
		s += "alignstack "
	}
	if code != CstCodeInlineAsmOld && (flags>>2)&1 != 0 {
		s += "inteldialect "
	}
	if (code == CstCodeInlineAsm || code == CstCodeInlineAsmOld3) && (flags>>3)&1 != 0 {
		s += "unwind "
	}
	return s
}

func (d *decoder) binopName(opc uint64, ty int32) string {
	if isFP(d.types[d.scalarOf(ty)].kind) {
		if opc < uint64(len(fbinopNames)) && fbinopNames[opc] != "" {
			return fbinopNames[opc]
		}
	} else if opc < uint64(len(binopNames)) {
		return binopNames[opc]
	}
	d.failf("unknown binary opcode %d", opc)
	return ""
}

// binopFlags renders a binary operator's optional flags (" nuw nsw",
// " exact", " disjoint", fast-math flags).
func binopFlags(opc, f uint64, fp bool) string {
	if fp {
		return fmfText(f)
	}
	switch opc {
	case 0, 1, 2, 7: // add sub mul shl
		s := ""
		if f&1 != 0 {
			s += " nuw"
		}
		if f&2 != 0 {
			s += " nsw"
		}
		return s
	case 3, 4, 8, 9: // udiv sdiv lshr ashr
		if f&1 != 0 {
			return " exact"
		}
	case 11: // or
		if f&1 != 0 {
			return " disjoint"
		}
	}
	return ""
}

// fmfText renders fast-math flags (bitcode's FastMathMap).
func fmfText(f uint64) string {
	if f&1 != 0 || f&0xfe == 0xfe {
		return " fast"
	}
	s := ""
	for _, p := range []struct {
		bit  uint64
		name string
	}{{1 << 7, "reassoc"}, {1 << 1, "nnan"}, {1 << 2, "ninf"}, {1 << 3, "nsz"}, {1 << 4, "arcp"}, {1 << 5, "contract"}, {1 << 6, "afn"}} {
		if f&p.bit != 0 {
			s += " " + p.name
		}
	}
	return s
}

func intText(v uint64, width uint64) string {
	if width == 1 {
		if v&1 != 0 {
			return "true"
		}
		return "false"
	}
	x := int64(v)
	if width < 64 {
		x = x << (64 - width) >> (64 - width)
	}
	return strconv.FormatInt(x, 10)
}

func wideIntText(words []uint64, width uint64) string {
	n := new(big.Int)
	for i := len(words) - 1; i >= 0; i-- {
		n.Lsh(n, 64)
		n.Or(n, new(big.Int).SetUint64(decodeSigned(words[i])))
	}
	// Truncate to width, then read as signed.
	mod := new(big.Int).Lsh(big.NewInt(1), uint(width))
	n.Mod(n, mod)
	if n.Bit(int(width)-1) == 1 {
		n.Sub(n, mod)
	}
	return n.String()
}

func (d *decoder) aggregate(t *typ, ops []uint64) string {
	var sb strings.Builder
	elemTy := func(i int) int32 {
		if t.kind == tStruct {
			if i >= len(t.elems) {
				d.failf("too many struct elements")
			}
			return t.elems[i]
		}
		return t.elems[0]
	}
	switch t.kind {
	case tStruct:
		if t.packed {
			sb.WriteString("<")
		}
		sb.WriteString("{ ")
		if len(ops) != len(t.elems) {
			d.failf("struct constant with %d elements for %d fields", len(ops), len(t.elems))
		}
	case tArray:
		sb.WriteString("[")
	case tVector:
		sb.WriteString("<")
	default:
		d.failf("aggregate constant of type %s", t.str)
	}
	for i, e := range ops {
		if i > 0 {
			sb.WriteString(", ")
		}
		et := elemTy(i)
		sb.WriteString(d.tstr(et) + " " + d.constText(e, et))
	}
	switch t.kind {
	case tStruct:
		if len(ops) == 0 {
			return map[bool]string{false: "{}", true: "<{}>"}[t.packed]
		}
		sb.WriteString(" }")
		if t.packed {
			sb.WriteString(">")
		}
	case tArray:
		sb.WriteString("]")
	case tVector:
		sb.WriteString(">")
	}
	return sb.String()
}

func (d *decoder) dataText(t *typ, ops []uint64) string {
	if t.kind != tArray && t.kind != tVector {
		d.failf("data constant of type %s", t.str)
	}
	et := d.types[t.elems[0]]
	if t.kind == tArray && et.kind == tInt && et.n == 8 {
		var sb strings.Builder
		sb.WriteString("c\"")
		escapeInto(&sb, opsString(ops))
		sb.WriteString("\"")
		return sb.String()
	}
	var sb strings.Builder
	open, end := "[", "]"
	if t.kind == tVector {
		open, end = "<", ">"
	}
	sb.WriteString(open)
	for i, v := range ops {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(et.str + " ")
		switch {
		case et.kind == tInt:
			sb.WriteString(intText(v, et.n))
		case isFP(et.kind):
			sb.WriteString(floatText(et.kind, []uint64{v}))
		default:
			d.failf("data constant of element type %s", et.str)
		}
	}
	sb.WriteString(end)
	return sb.String()
}

func gepFlags(f uint64) string {
	s := ""
	if f&1 != 0 {
		s += " inbounds"
	} else if f&2 != 0 {
		s += " nusw"
	}
	if f&4 != 0 {
		s += " nuw"
	}
	return s
}

func (d *decoder) constGEP(c *constant) string {
	ops := c.ops
	if len(ops) < 2 {
		d.failf("constant GEP record too short")
	}
	i := 0
	var pointee int32 = -1
	if c.code == CstCodeCEGEPWithInRangeIndexOld || c.code == CstCodeCEGEPWithInRange || c.code == CstCodeCEGEP || len(ops)%2 == 1 {
		pointee = d.tyID(ops[0])
		i++
	}
	var flags uint64
	inRangeOp := -1
	inRange := ""
	switch c.code {
	case CstCodeCEGEPWithInRangeIndexOld:
		if i >= len(ops) {
			d.failf("constant GEP record too short")
		}
		flags = ops[i] & 1
		inRangeOp = int(ops[i] >> 1)
		i++
	case CstCodeCEGEPWithInRange:
		if i+2 > len(ops) {
			d.failf("constant GEP record too short")
		}
		flags = ops[i]
		var lo, hi string
		lo, hi, i = d.readRange(ops, i+2, ops[i+1])
		inRange = " inrange(" + lo + ", " + hi + ")"
	case CstCodeCEGEP:
		if i >= len(ops) {
			d.failf("constant GEP record too short")
		}
		flags = ops[i]
		i++
	case CstCodeCEInboundsGEP:
		flags = 1
	}
	if (len(ops)-i)%2 != 0 || len(ops)-i < 2 {
		d.failf("bad constant GEP operands")
	}
	if pointee < 0 {
		bt := d.types[d.scalarOf(d.tyID(ops[i]))]
		if bt.kind != tPtr || bt.elems == nil {
			d.failf("constant GEP on a non-pointer")
		}
		pointee = bt.elems[0]
	}
	var sb strings.Builder
	sb.WriteString("getelementptr" + gepFlags(flags) + inRange + " (" + d.tstr(pointee))
	for k := 0; i < len(ops); k++ {
		ty := d.tyID(ops[i])
		sb.WriteString(", ")
		if k == inRangeOp+1 && inRangeOp >= 0 && k > 0 {
			sb.WriteString("inrange ")
		}
		sb.WriteString(d.tstr(ty) + " " + d.constText(ops[i+1], ty))
		i += 2
	}
	sb.WriteString(")")
	return sb.String()
}

func wideUnsigned(words []uint64, width uint64) string {
	n := new(big.Int)
	for i := len(words) - 1; i >= 0; i-- {
		n.Lsh(n, 64)
		n.Or(n, new(big.Int).SetUint64(decodeSigned(words[i])))
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(width))
	return n.Mod(n, mod).String()
}
