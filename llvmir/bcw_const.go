package llvmir

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
)

// bcConst is a constant as its CONSTANTS record: the code and operands
// (value and type numbers), built when it is parsed, its operands
// numbered first. Equal records are one constant, as LLVM uniques them.
type bcConst struct {
	t    *Type
	code uint64
	ops  []uint64
	str  bool // ops are bytes: written with the 8-bit array abbreviation
	id   int  // index in the list, or -1 for a global value
	gid  int  // global value number when id < 0
	// bb is a blockaddress's function and block, resolved when the
	// function's blocks are known.
	bbFn  *Entity
	bbTok token
}

// bcConsts is the module's constants, all in the module-level block (a
// function may use any of them).
type bcConsts struct {
	a     *bcw
	base  int // value number of the first constant
	list  []*bcConst
	byKey map[string]*bcConst
	globs map[*Entity]*bcConst
	small map[bcSmallKey]*bcConst // records of at most one operand
	// recent holds integers met lately, by type and value: a body's
	// operands repeat a few small integers.
	recent [256]bcRecentInt
	// asmFnTy is the function type of the call whose callee is being
	// parsed: inline assembly's type.
	asmFnTy *Type
}

func (cs *bcConsts) init(a *bcw) {
	cs.a = a
	cs.byKey = map[string]*bcConst{}
	cs.globs = map[*Entity]*bcConst{}
	cs.small = map[bcSmallKey]*bcConst{}
}

// bcSmallKey identifies a constant record of at most one operand
// (integers, floats, null, undef, poison) without building a string.
type bcSmallKey struct {
	ty   int
	code uint64
	op   uint64
	n    int
}

// id returns the value number of a constant.
func (cs *bcConsts) id(c *bcConst) int {
	if c.id < 0 {
		return c.gid
	}
	return cs.base + c.id
}

// add interns a constant record of type t.
func (cs *bcConsts) add(t *Type, code uint64, ops []uint64, isStr bool) *bcConst {
	ty := cs.a.tys.id(t, cs.a.p.tok.start)
	if len(ops) <= 1 && !isStr {
		sk := bcSmallKey{ty: ty, code: code, n: len(ops)}
		if len(ops) == 1 {
			sk.op = ops[0]
		}
		if c, ok := cs.small[sk]; ok {
			return c
		}
		c := &bcConst{t: t, code: code, ops: ops, id: len(cs.list)}
		cs.list = append(cs.list, c)
		cs.small[sk] = c
		return c
	}
	var buf [128]byte
	k := strconv.AppendInt(buf[:0], int64(ty), 10)
	k = append(k, ':')
	k = strconv.AppendUint(k, code, 10)
	k = appendKey(append(k, ':'), ops)
	if c, ok := cs.byKey[string(k)]; ok {
		return c
	}
	c := &bcConst{t: t, code: code, ops: ops, str: isStr, id: len(cs.list)}
	cs.list = append(cs.list, c)
	cs.byKey[string(k)] = c
	return c
}

func (cs *bcConsts) global(e *Entity) *bcConst {
	if c, ok := cs.globs[e]; ok {
		return c
	}
	c := &bcConst{id: -1, gid: cs.a.gvalID[e]}
	cs.globs[e] = c
	return c
}

// parseAt parses the constant of type t at off.
func (cs *bcConsts) parseAt(off int, t *Type) *bcConst {
	cs.a.p.reset(off)
	return cs.parse(t)
}

func (cs *bcConsts) typed() *bcConst {
	t := cs.a.p.parseType()
	return cs.parse(t)
}

func (cs *bcConsts) vid(c *bcConst) uint64 { return uint64(cs.id(c)) }

// parse parses a constant of type t at the current token.
func (cs *bcConsts) parse(t *Type) *bcConst {
	a, p := cs.a, cs.a.p
	tok := p.tok
	d := p.depth
	p.enter("constant")
	defer func() { p.depth = d }()
	switch tok.kind {
	case tInt:
		p.next()
		if t.Kind != IntType {
			a.unsupported(tok.start, "an integer constant of type "+t.String())
		}
		if t.Bits <= 64 {
			// Most integers fit 64 bits: no big.Int.
			if u, ok := bcSmallInt(p.text(tok)); ok {
				return cs.smallInt(t, u)
			}
		}
		v, ok := new(big.Int).SetString(p.text(tok), 10)
		if !ok {
			p.fail(tok.start, "invalid integer")
		}
		return cs.intConst(t, v)
	case tFloat:
		p.next()
		return cs.floatConst(tok, t, p.text(tok))
	case tCString:
		p.next()
		b := p.bytes(tok)
		data := unescapeBytes(b[2 : len(b)-1])
		return cs.stringConst(t, data)
	case tGlobal, tGlobalN:
		p.next()
		e := cs.globalNamed(tok)
		return cs.global(e)
	case tPunct:
		switch p.src[tok.start] {
		case '[', '{', '<':
			return cs.aggregate(t)
		}
	case tIdent:
		return cs.ident(t)
	}
	p.failTok("expected a constant")
	return nil
}

// globalNamed returns the global value a token names.
func (cs *bcConsts) globalNamed(tok token) *Entity {
	p := cs.a.p
	var e *Entity
	if tok.kind == tGlobalN {
		e = cs.a.m.UnnamedGlobal(p.number(tok))
	} else {
		e = cs.a.m.Global(p.name(tok))
	}
	if e == nil {
		p.fail(tok.start, "use of undefined value '"+p.text(tok)+"'")
	}
	return e
}

// bcSmallInt parses a decimal integer that fits 64 bits (two's
// complement for a negative one).
func bcSmallInt(s string) (uint64, bool) {
	if len(s) > 0 && s[0] == '-' {
		v, err := strconv.ParseInt(s, 10, 64)
		return uint64(v), err == nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// smallInt is intConst for a width of at most 64 bits.
func (cs *bcConsts) smallInt(t *Type, u uint64) *bcConst {
	if t.Bits < 64 {
		u &= 1<<t.Bits - 1
	}
	r := &cs.recent[(u*0x9e3779b97f4a7c15+uint64(t.Bits))>>56]
	if r.c != nil && r.t == t && r.u == u {
		return r.c
	}
	var c *bcConst
	if u == 0 {
		c = cs.add(t, bitcode.CstCodeNull, nil, false)
	} else {
		// Most integers were met before: found without building a record.
		v := bcSignRotate(u, uint64(t.Bits))
		sk := bcSmallKey{ty: cs.a.tys.id(t, cs.a.p.tok.start), code: bitcode.CstCodeInteger, op: v, n: 1}
		var ok bool
		if c, ok = cs.small[sk]; !ok {
			c = cs.add(t, bitcode.CstCodeInteger, []uint64{v}, false)
		}
	}
	*r = bcRecentInt{t: t, u: u, c: c}
	return c
}

// bcRecentInt is an integer constant met lately (bcConsts.recent).
type bcRecentInt struct {
	t *Type
	u uint64
	c *bcConst
}

func (cs *bcConsts) intConst(t *Type, v *big.Int) *bcConst {
	if t.Bits <= 64 {
		m := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1)))
		u := m.Uint64()
		if u == 0 {
			return cs.add(t, bitcode.CstCodeNull, nil, false)
		}
		return cs.add(t, bitcode.CstCodeInteger, []uint64{bcSignRotate(u, uint64(t.Bits))}, false)
	}
	// Wider: 64-bit words, least significant first, each sign-rotated.
	n := (int(t.Bits) + 63) / 64
	m := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1)))
	if m.Sign() == 0 {
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	}
	words := make([]uint64, n)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := 0; i < n; i++ {
		w := new(big.Int).And(new(big.Int).Rsh(m, uint(64*i)), mask).Uint64()
		words[i] = bcSignRotate(w, 64)
	}
	return cs.add(t, bitcode.CstCodeWideInteger, words, false)
}

func (cs *bcConsts) floatConst(tok token, t *Type, s string) *bcConst {
	a := cs.a
	var words []uint64
	hexWord := func(h string) uint64 {
		v, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			a.p.fail(tok.start, "invalid floating-point constant")
		}
		return v
	}
	switch {
	case strings.HasPrefix(s, "0xH"), strings.HasPrefix(s, "0xR"):
		if (s[2] == 'H') != (t.Kind == HalfType) || (s[2] == 'R') != (t.Kind == BFloatType) {
			a.unsupported(tok.start, "this floating-point constant for "+t.String())
		}
		words = []uint64{hexWord(s[3:])}
	case strings.HasPrefix(s, "0xK"):
		if t.Kind != X86FP80Type || len(s) != 23 {
			a.unsupported(tok.start, "this floating-point constant")
		}
		hi, lo := hexWord(s[3:7]), hexWord(s[7:])
		words = []uint64{hi<<48 | lo>>16, lo & 0xffff}
	case strings.HasPrefix(s, "0xL"), strings.HasPrefix(s, "0xM"):
		if (t.Kind != FP128Type && t.Kind != PPCFP128Type) || len(s) != 35 {
			a.unsupported(tok.start, "this floating-point constant")
		}
		words = []uint64{hexWord(s[3:19]), hexWord(s[19:])}
		if s[2] == 'L' {
			words[0], words[1] = words[1], words[0]
		}
	default:
		var f float64
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "-0x") {
			neg := s[0] == '-'
			h := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "0x")
			f = math.Float64frombits(hexWord(h))
			if neg {
				f = -f
			}
		} else {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				a.p.fail(tok.start, "invalid floating-point constant")
			}
			f = v
		}
		switch t.Kind {
		case DoubleType:
			words = []uint64{math.Float64bits(f)}
		case FloatType:
			g := float32(f)
			if float64(g) != f && !math.IsNaN(f) {
				a.p.fail(tok.start, "floating point constant invalid for type")
			}
			words = []uint64{uint64(math.Float32bits(g))}
			if math.IsNaN(f) {
				words = []uint64{bcNaN32(math.Float64bits(f))}
			}
		case HalfType, BFloatType:
			// A decimal or double-hexadecimal value LLVM converts when it
			// is exact.
			b, ok := bcHalfBits(f, t.Kind == BFloatType)
			if !ok {
				a.p.fail(tok.start, "floating point constant invalid for type")
			}
			words = []uint64{b}
		default:
			a.unsupported(tok.start, "this floating-point constant for "+t.String())
		}
	}
	if len(words) == 1 && words[0] == 0 {
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	}
	return cs.add(t, bitcode.CstCodeFloat, words, false)
}

// bcNaN32 converts a double NaN's bits to float's as LLVM does: sign,
// all-ones exponent, the top 23 bits of the payload.
func bcNaN32(b uint64) uint64 {
	sign := b >> 63
	payload := (b >> 29) & (1<<23 - 1)
	return sign<<31 | 0xff<<23 | payload
}

func (cs *bcConsts) stringConst(t *Type, data []byte) *bcConst {
	if t.Kind != ArrayType || t.Elem.Kind != IntType || t.Elem.Bits != 8 || uint64(len(data)) != t.Len {
		cs.a.p.fail(cs.a.p.prevEnd, "constant string does not match type "+t.String())
	}
	zero := true
	for _, c := range data {
		if c != 0 {
			zero = false
			break
		}
	}
	if zero {
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	}
	ops := make([]uint64, len(data))
	for i, c := range data {
		ops[i] = uint64(c)
	}
	code := uint64(bitcode.CstCodeString)
	if data[len(data)-1] == 0 && indexByte0(data[:len(data)-1]) < 0 {
		code = bitcode.CstCodeCString
		ops = ops[:len(ops)-1]
	}
	return cs.add(t, code, ops, true)
}

func indexByte0(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func (cs *bcConsts) aggregate(t *Type) *bcConst {
	p := cs.a.p
	open := p.tok
	closer := byte(']')
	switch p.src[open.start] {
	case '{':
		closer = '}'
	case '<':
		closer = '>'
	}
	p.next()
	if closer == '>' && p.isPunct('{') {
		p.next()
		closer = '}'
		defer p.expectPunct('>')
	}
	var ids []uint64
	for !p.isPunct(closer) {
		el := cs.typed()
		ids = append(ids, cs.vid(el))
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(closer)
	n := uint64(len(ids))
	switch t.Kind {
	case ArrayType, VectorType:
		if n != t.Len {
			p.fail(open.start, "constant has "+strconv.FormatUint(n, 10)+" elements for type "+t.String())
		}
	case StructType:
		if int(n) != len(t.Fields) {
			p.fail(open.start, "constant does not match type "+t.String())
		}
	default:
		p.fail(open.start, "aggregate constant of type "+t.String())
	}
	if n == 0 {
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	}
	return cs.add(t, bitcode.CstCodeAggregate, ids, false)
}

var bcCastOps = map[string]uint64{
	"trunc": 0, "zext": 1, "sext": 2, "fptoui": 3, "fptosi": 4, "uitofp": 5, "sitofp": 6, "fptrunc": 7,
	"fpext": 8, "ptrtoint": 9, "inttoptr": 10, "bitcast": 11, "addrspacecast": 12,
}

// bcBinOp is a binary operator's opcode in bitcode (ok false for a word
// that is not one); a switch, as the instruction parser meets one for
// most instructions.
func bcBinOp(op string) (code uint64, ok bool) {
	switch op {
	case "add", "fadd":
		return 0, true
	case "sub", "fsub":
		return 1, true
	case "mul", "fmul":
		return 2, true
	case "udiv":
		return 3, true
	case "sdiv", "fdiv":
		return 4, true
	case "urem":
		return 5, true
	case "srem", "frem":
		return 6, true
	case "shl":
		return 7, true
	case "lshr":
		return 8, true
	case "ashr":
		return 9, true
	case "and":
		return 10, true
	case "or":
		return 11, true
	case "xor":
		return 12, true
	}
	return 0, false
}

var bcPreds = map[string]uint64{
	"false": 0, "oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7, "uno": 8, "ueq": 9,
	"ugt": 10, "uge": 11, "ult": 12, "ule": 13, "une": 14, "true": 15,
	"eq": 32, "ne": 33, "sgt": 38, "sge": 39, "slt": 40, "sle": 41,
}

// bcIPreds are the integer predicates that share a name with a
// floating-point one.
var bcIPreds = map[string]uint64{"ugt": 34, "uge": 35, "ult": 36, "ule": 37}

// ident parses a constant of type t that starts with a word: a keyword
// constant, a splat, a global wrapper, a blockaddress, an s0x/u0x
// integer, a constant expression or inline assembly.
func (cs *bcConsts) ident(t *Type) *bcConst {
	a, p := cs.a, cs.a.p
	tok := p.tok
	w := p.text(tok)
	switch w {
	case "true", "false":
		p.next()
		if t.Kind != IntType || t.Bits != 1 {
			p.fail(tok.start, "'"+w+"' of type "+t.String())
		}
		if w == "false" {
			return cs.add(t, bitcode.CstCodeNull, nil, false)
		}
		return cs.add(t, bitcode.CstCodeInteger, []uint64{bcSignRotate(1, 1)}, false)
	case "null", "zeroinitializer", "none":
		p.next()
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	case "undef":
		p.next()
		return cs.add(t, bitcode.CstCodeUndef, nil, false)
	case "poison":
		p.next()
		return cs.add(t, bitcode.CstCodePoison, nil, false)
	case "splat":
		return cs.splat(t, tok)
	case "dso_local_equivalent", "no_cfi":
		return cs.globalWrapper(t, w, tok)
	case "blockaddress":
		return cs.blockAddress(t, tok)
	}
	if len(w) > 3 && (w[0] == 's' || w[0] == 'u') && w[1] == '0' && w[2] == 'x' {
		p.next()
		v, ok := new(big.Int).SetString(w[3:], 16)
		if !ok || t.Kind != IntType {
			p.fail(tok.start, "invalid hexadecimal integer")
		}
		return cs.intConst(t, v)
	}
	if exprOps[w] {
		return cs.expr(t)
	}
	if w == "asm" && cs.asmFnTy != nil {
		return cs.inlineAsm(t)
	}
	if w == "asm" {
		a.unsupported(tok.start, "inline assembly outside a call")
	}
	p.failTok("expected a constant")
	return nil
}

// splat parses "splat (<ty> <value>)" (the parser is at "splat") as a
// vector of t with every element the value.
func (cs *bcConsts) splat(t *Type, tok token) *bcConst {
	p := cs.a.p
	p.next()
	p.expectPunct('(')
	el := cs.typed()
	p.expectPunct(')')
	if t.Kind != VectorType || t.Len > 1<<16 {
		p.fail(tok.start, "splat of "+t.String())
	}
	if t.Scalable {
		return cs.scalableSplat(t, el)
	}
	ids := make([]uint64, t.Len)
	for i := range ids {
		ids[i] = cs.vid(el)
	}
	return cs.add(t, bitcode.CstCodeAggregate, ids, false)
}

// globalWrapper parses "dso_local_equivalent @g" or "no_cfi @g" (w is
// the keyword, the parser at it).
func (cs *bcConsts) globalWrapper(t *Type, w string, tok token) *bcConst {
	a, p := cs.a, cs.a.p
	p.next()
	gt := p.tok
	if gt.kind != tGlobal && gt.kind != tGlobalN {
		p.failTok("expected a global value")
	}
	p.next()
	e := cs.globalNamed(gt)
	code := uint64(bitcode.CstCodeDSOLocalEquivalent)
	if w == "no_cfi" {
		code = bitcode.CstCodeNoCFIValue
	}
	return cs.add(t, code, []uint64{uint64(a.tys.id(cs.globalType(e), tok.start)), uint64(a.gvalID[e])}, false)
}

// blockAddress parses "blockaddress(@f, %bb)"; the block's index is found
// when the constant is written.
func (cs *bcConsts) blockAddress(t *Type, tok token) *bcConst {
	a, p := cs.a, cs.a.p
	p.next()
	p.expectPunct('(')
	gt := p.tok
	if gt.kind != tGlobal && gt.kind != tGlobalN {
		p.failTok("expected a function")
	}
	p.next()
	e := cs.globalNamed(gt)
	if e.Kind != KindFunction {
		p.fail(gt.start, "blockaddress of a non-function")
	}
	p.expectPunct(',')
	bb := p.tok
	if bb.kind != tLocal && bb.kind != tLocalN {
		p.failTok("expected a basic block")
	}
	p.next()
	p.expectPunct(')')
	// The type is the function's as a value: a pointer.
	c := cs.add(t, bitcode.CstCodeBlockAddress, []uint64{uint64(a.tys.id(cs.globalType(e), tok.start)), uint64(a.gvalID[e]), uint64(bb.start)}, false)
	c.bbFn, c.bbTok = e, bb
	if a.cur != nil {
		a.cur.noCache = true // its block is found among the module's bodies
	}
	return c
}

// globalType is the type a global value has as an operand.
func (cs *bcConsts) globalType(e *Entity) *Type {
	switch e.Kind {
	case KindFunction:
		if cs.a.opq {
			return bcPtr(e.Func.AddrSpace)
		}
		return &Type{Kind: PtrType, Elem: e.Func.Type(), AddrSpace: uint32(e.Func.AddrSpace)}
	case KindGlobalVar:
		if cs.a.opq {
			return bcPtr(e.Var.AddrSpace)
		}
		return &Type{Kind: PtrType, Elem: e.Var.Type, AddrSpace: uint32(e.Var.AddrSpace)}
	default:
		if cs.a.opq {
			return bcPtr(e.Alias.AddrSpace)
		}
		return &Type{Kind: PtrType, Elem: e.Alias.Type, AddrSpace: uint32(e.Alias.AddrSpace)}
	}
}

func bcPtr(as int) *Type {
	if as == 0 {
		return typePtr
	}
	return &Type{Kind: PtrType, AddrSpace: uint32(as)}
}

// bcFlags parses the flags that may follow an opcode and returns them as
// the record's bits.
type bcFlagSet struct {
	nuw, nsw, exact, inbounds, nusw, disjoint, nneg, samesign bool
	fmf                                                       uint64
}

func (a *bcw) parseFlags() bcFlagSet {
	p := a.p
	var f bcFlagSet
	for p.tok.kind == tIdent {
		// One switch, not a map: the word after an instruction's flags
		// (its type, most often) comes here too.
		switch p.text(p.tok) {
		case "nuw":
			f.nuw = true
		case "nsw":
			f.nsw = true
		case "exact":
			f.exact = true
		case "inbounds":
			f.inbounds = true
		case "nusw":
			f.nusw = true
		case "disjoint":
			f.disjoint = true
		case "nneg":
			f.nneg = true
		case "samesign":
			f.samesign = true
		case "nnan":
			f.fmf |= 1 << 1
		case "ninf":
			f.fmf |= 1 << 2
		case "nsz":
			f.fmf |= 1 << 3
		case "arcp":
			f.fmf |= 1 << 4
		case "contract":
			f.fmf |= 1 << 5
		case "afn":
			f.fmf |= 1 << 6
		case "reassoc":
			f.fmf |= 1 << 7
		case "fast":
			f.fmf |= 0xFE
		default:
			return f
		}
		p.next()
	}
	return f
}

// binopFlags is a binary operator's flags field (0 when none).
func (f bcFlagSet) binop(op string) uint64 {
	switch op {
	case "add", "sub", "mul", "shl":
		var v uint64
		if f.nuw {
			v |= 1
		}
		if f.nsw {
			v |= 2
		}
		return v
	case "udiv", "sdiv", "lshr", "ashr":
		if f.exact {
			return 1
		}
	case "or":
		if f.disjoint {
			return 1
		}
	}
	return f.fmf
}

func (f bcFlagSet) gep() uint64 {
	var v uint64
	if f.inbounds {
		v |= 1
	}
	if f.nusw {
		v |= 2
	}
	if f.nuw {
		v |= 4
	}
	return v
}

// expr parses a constant expression (the parser is at its opcode): the
// opcode's flags, predicate and inrange, then the operands by opcode.
func (cs *bcConsts) expr(t *Type) *bcConst {
	a, p := cs.a, cs.a.p
	at := p.tok.start
	op := p.text(p.tok)
	p.next()
	fl := a.parseFlags()
	var pred uint64
	if op == "icmp" || op == "fcmp" {
		pred = cs.predicate(op)
	}
	var inrange []string
	if op == "getelementptr" && p.isIdent("inrange") {
		inrange = cs.inrangeBounds()
	}
	p.expectPunct('(')
	switch {
	case castOps[op]:
		return cs.castExpr(op, at)
	case op == "getelementptr":
		return cs.gepExpr(t, fl, inrange, at)
	case op == "icmp" || op == "fcmp":
		return cs.cmpExpr(t, pred, at)
	case op == "fneg":
		v := cs.typed()
		p.expectPunct(')')
		return cs.add(t, bitcode.CstCodeCEUnop, []uint64{0, cs.vid(v)}, false)
	case op == "extractelement":
		return cs.extractElementExpr(t, at)
	case op == "insertelement":
		return cs.insertElementExpr(t, at)
	case op == "shufflevector":
		return cs.shuffleVectorExpr(t, at)
	case op == "select":
		return cs.selectExpr(t)
	case op == "extractvalue" || op == "insertvalue":
		return cs.aggregateExpr(t, op, at)
	}
	if code, ok := bcBinOp(op); ok {
		return cs.binopExpr(t, op, code, fl)
	}
	a.unsupported(at, "the constant expression "+op)
	return nil
}

// predicate parses the predicate of an icmp or fcmp expression.
func (cs *bcConsts) predicate(op string) uint64 {
	p := cs.a.p
	w := p.text(p.tok)
	v, ok := bcPreds[w]
	if op == "icmp" {
		if iv, ok2 := bcIPreds[w]; ok2 {
			v, ok = iv, true
		}
	}
	if !ok {
		p.failTok("expected a comparison predicate")
	}
	p.next()
	return v
}

// inrangeBounds parses a getelementptr's "inrange(lo, hi)" as its words.
func (cs *bcConsts) inrangeBounds() []string {
	p := cs.a.p
	var inrange []string
	p.next()
	p.expectPunct('(')
	for !p.isPunct(')') {
		inrange = append(inrange, p.text(p.tok))
		p.next()
		p.acceptPunct(',')
	}
	p.expectPunct(')')
	return inrange
}

// castExpr parses the operands of the cast op: "<ty> <value> to <ty>)".
func (cs *bcConsts) castExpr(op string, at int) *bcConst {
	a, p := cs.a, cs.a.p
	v := cs.typed()
	p.expectIdent("to")
	to := p.parseType()
	p.expectPunct(')')
	return cs.add(to, bitcode.CstCodeCECast, []uint64{bcCastOps[op], uint64(a.tys.id(v.typ(cs), at)), cs.vid(v)}, false)
}

// gepExpr parses a getelementptr expression's source type and indices,
// and picks the record its flags and inrange take.
func (cs *bcConsts) gepExpr(t *Type, fl bcFlagSet, inrange []string, at int) *bcConst {
	a, p := cs.a, cs.a.p
	src := p.parseType()
	ops := []uint64{uint64(a.tys.id(src, at))}
	inrangeIdx := -1
	n := 0
	for p.acceptPunct(',') {
		if p.acceptIdent("inrange") {
			inrangeIdx = n - 1 // among the indices, the base not counted
		}
		vt := p.parseType()
		v := cs.parse(vt)
		ops = append(ops, uint64(a.tys.id(vt, at)), cs.vid(v))
		n++
	}
	p.expectPunct(')')
	switch {
	case len(inrange) == 2:
		if a.gen < 19 {
			a.unsupported(at, "inrange(…) before LLVM 19")
		}
		lo, _ := new(big.Int).SetString(inrange[0], 10)
		hi, _ := new(big.Int).SetString(inrange[1], 10)
		if lo == nil || hi == nil {
			p.fail(at, "bad inrange")
		}
		w := uint64(64)
		rec := append([]uint64{ops[0], fl.gep(), w, bcSignedBig(lo, w), bcSignedBig(hi, w)}, ops[1:]...)
		return cs.add(t, bitcode.CstCodeCEGEPWithInRange, rec, false)
	case inrangeIdx >= 0:
		if a.gen >= 19 {
			a.unsupported(at, "inrange on an index")
		}
		inb := uint64(0)
		if fl.inbounds {
			inb = 1
		}
		rec := append([]uint64{ops[0], uint64(inrangeIdx)<<1 | inb}, ops[1:]...)
		return cs.add(t, bitcode.CstCodeCEGEPWithInRangeIndexOld, rec, false)
	case fl.nusw || fl.nuw:
		if a.gen < 19 {
			a.unsupported(at, "nusw/nuw on getelementptr before LLVM 19")
		}
		rec := append([]uint64{ops[0], fl.gep()}, ops[1:]...)
		return cs.add(t, bitcode.CstCodeCEGEP, rec, false)
	case fl.inbounds:
		return cs.add(t, bitcode.CstCodeCEInboundsGEP, ops, false)
	}
	return cs.add(t, bitcode.CstCodeCEGEPOld, ops, false)
}

// cmpExpr parses the operands of an icmp or fcmp expression.
func (cs *bcConsts) cmpExpr(t *Type, pred uint64, at int) *bcConst {
	a, p := cs.a, cs.a.p
	l := cs.typed()
	p.expectPunct(',')
	r := cs.typed()
	p.expectPunct(')')
	return cs.add(t, bitcode.CstCodeCECmp, []uint64{uint64(a.tys.id(l.typ(cs), at)), cs.vid(l), cs.vid(r), pred}, false)
}

// extractElementExpr parses the operands of an extractelement expression.
func (cs *bcConsts) extractElementExpr(t *Type, at int) *bcConst {
	a, p := cs.a, cs.a.p
	v := cs.typed()
	p.expectPunct(',')
	ix := cs.typed()
	p.expectPunct(')')
	return cs.add(t, bitcode.CstCodeCEExtractElt, []uint64{uint64(a.tys.id(v.typ(cs), at)), cs.vid(v), uint64(a.tys.id(ix.typ(cs), at)), cs.vid(ix)}, false)
}

// insertElementExpr parses the operands of an insertelement expression.
func (cs *bcConsts) insertElementExpr(t *Type, at int) *bcConst {
	a, p := cs.a, cs.a.p
	v := cs.typed()
	p.expectPunct(',')
	el := cs.typed()
	p.expectPunct(',')
	ix := cs.typed()
	p.expectPunct(')')
	return cs.add(t, bitcode.CstCodeCEInsertElt, []uint64{cs.vid(v), cs.vid(el), uint64(a.tys.id(ix.typ(cs), at)), cs.vid(ix)}, false)
}

// shuffleVectorExpr parses the operands of a shufflevector expression.
func (cs *bcConsts) shuffleVectorExpr(t *Type, at int) *bcConst {
	a, p := cs.a, cs.a.p
	l := cs.typed()
	p.expectPunct(',')
	r := cs.typed()
	p.expectPunct(',')
	mask := cs.typed()
	p.expectPunct(')')
	// The short record when the result has the operands' type; the
	// long one names the operands' type otherwise.
	lt := l.typ(cs)
	if a.tys.id(lt, at) == a.tys.id(t, at) {
		return cs.add(t, bitcode.CstCodeCEShuffleVec, []uint64{cs.vid(l), cs.vid(r), cs.vid(mask)}, false)
	}
	return cs.add(t, bitcode.CstCodeCEShufVecEx, []uint64{uint64(a.tys.id(lt, at)), cs.vid(l), cs.vid(r), cs.vid(mask)}, false)
}

// selectExpr parses the operands of a select expression.
func (cs *bcConsts) selectExpr(t *Type) *bcConst {
	p := cs.a.p
	c := cs.typed()
	p.expectPunct(',')
	l := cs.typed()
	p.expectPunct(',')
	r := cs.typed()
	p.expectPunct(')')
	return cs.add(t, bitcode.CstCodeCESelect, []uint64{cs.vid(c), cs.vid(l), cs.vid(r)}, false)
}

// binopExpr parses the operands of the binary operator op (code in the
// record) and appends its flags.
func (cs *bcConsts) binopExpr(t *Type, op string, code uint64, fl bcFlagSet) *bcConst {
	p := cs.a.p
	l := cs.typed()
	p.expectPunct(',')
	r := cs.typed()
	p.expectPunct(')')
	ops := []uint64{code, cs.vid(l), cs.vid(r)}
	if f := fl.binop(op); f != 0 {
		ops = append(ops, f)
	}
	return cs.add(t, bitcode.CstCodeCEBinop, ops, false)
}

// typ returns the constant's type.
func (c *bcConst) typ(cs *bcConsts) *Type {
	if c.id < 0 {
		return cs.globalType(cs.a.gvals[c.gid])
	}
	return c.t
}

// write writes a CONSTANTS block of list (from value number base).
func (cs *bcConsts) write(list []*bcConst, _ int) {
	if len(list) == 0 {
		return
	}
	a := cs.a
	s := a.s
	s.EnterBlock(bitcode.ConstantsBlockID, 4)
	strAbbrev := map[uint64]uint64{
		bitcode.CstCodeString:  s.DefineAbbrev(bitcode.Literal(bitcode.CstCodeString), bitcode.Array(), bitcode.Fixed(8)),
		bitcode.CstCodeCString: s.DefineAbbrev(bitcode.Literal(bitcode.CstCodeCString), bitcode.Array(), bitcode.Fixed(8)),
	}
	cur := -1
	for _, c := range list {
		ty := int(a.tys.ref(c.t))
		if ty != cur {
			s.Record(bitcode.CstCodeSetType, uint64(ty))
			cur = ty
		}
		if c.bbFn != nil {
			c.ops[2] = uint64(a.blockIndex(c.bbFn, c.bbTok))
		}
		if c.str {
			s.AbbrevRecord(strAbbrev[c.code], c.ops, nil, nil)
			continue
		}
		s.Record(c.code, c.ops...)
	}
	s.ExitBlock()
}

// inlineAsm parses "asm [sideeffect] [alignstack] [inteldialect]
// [unwind] "code", "constraints"" of type t (the callee's pointer type).
func (cs *bcConsts) inlineAsm(t *Type) *bcConst {
	a, p := cs.a, cs.a.p
	p.next()
	var flags uint64
	for p.tok.kind == tIdent {
		switch p.text(p.tok) {
		case "sideeffect":
			flags |= 1
		case "alignstack":
			flags |= 2
		case "inteldialect":
			flags |= 4
		case "unwind":
			flags |= 8
		default:
			p.failTok("expected an inline assembly string")
		}
		p.next()
	}
	code := p.expectString()
	p.expectPunct(',')
	cons := p.expectString()
	ops := []uint64{flags, uint64(len(code))}
	ops = append(ops, bcChars(code)...)
	ops = append(ops, uint64(len(cons)))
	ops = append(ops, bcChars(cons)...)
	if a.gen < 15 {
		return cs.add(t, bitcode.CstCodeInlineAsmOld3, ops, false)
	}
	return cs.add(t, bitcode.CstCodeInlineAsm, append([]uint64{uint64(a.tys.id(cs.asmFnTy, p.tok.start))}, ops...), false)
}

// aggregateExpr folds an extractvalue or insertvalue constant expression
// (only LLVM 14 reads them): LLVM folds them when it parses the text, and
// its writer has no record for one it could not fold.
func (cs *bcConsts) aggregateExpr(t *Type, op string, at int) *bcConst {
	p := cs.a.p
	agg := cs.typed()
	aggT := agg.typ(cs)
	var el *bcConst
	if op == "insertvalue" {
		p.expectPunct(',')
		el = cs.typed()
	}
	var idx []uint64
	for p.acceptPunct(',') {
		idx = append(idx, p.expectUint("index"))
	}
	p.expectPunct(')')
	if len(idx) == 0 {
		p.fail(at, op+" needs an index")
	}
	if op == "extractvalue" {
		c := agg
		ct := aggT
		for _, i := range idx {
			c, ct = cs.element(c, ct, i, at)
		}
		return c
	}
	return cs.insertValue(agg, aggT, el, idx, at)
}

// elementType is the type of the i-th element of an aggregate type.
func (cs *bcConsts) elementType(t *Type, i uint64, at int) *Type {
	switch t.Kind {
	case ArrayType, VectorType:
		if i < t.Len {
			return t.Elem
		}
	case StructType:
		if i < uint64(len(t.Fields)) {
			return t.Fields[i]
		}
	}
	cs.a.p.fail(at, "invalid index for the type "+t.String())
	return nil
}

// element is the i-th element of the aggregate constant c of type t.
func (cs *bcConsts) element(c *bcConst, t *Type, i uint64, at int) (*bcConst, *Type) {
	et := cs.elementType(t, i, at)
	if c.id < 0 {
		cs.a.unsupported(at, "an element of a global value")
	}
	switch c.code {
	case bitcode.CstCodeNull, bitcode.CstCodeUndef, bitcode.CstCodePoison:
		return cs.add(et, c.code, nil, false), et
	case bitcode.CstCodeAggregate:
		return cs.byID(c.ops[i]), et
	case bitcode.CstCodeString, bitcode.CstCodeCString:
		var b uint64
		if i < uint64(len(c.ops)) {
			b = c.ops[i]
		}
		return cs.smallInt(et, b), et
	}
	cs.a.unsupported(at, "an element of this constant expression")
	return nil, nil
}

// byID is the constant of a value number.
func (cs *bcConsts) byID(id uint64) *bcConst {
	if int(id) < cs.base {
		return cs.global(cs.a.gvals[id])
	}
	return cs.list[int(id)-cs.base]
}

// insertValue is the aggregate agg of type t with the element at the
// path idx replaced by el.
func (cs *bcConsts) insertValue(agg *bcConst, t *Type, el *bcConst, idx []uint64, at int) *bcConst {
	var n uint64
	switch t.Kind {
	case ArrayType, VectorType:
		n = t.Len
	case StructType:
		n = uint64(len(t.Fields))
	}
	cs.elementType(t, idx[0], at)
	ids := make([]uint64, n)
	for i := range ids {
		e, et := cs.element(agg, t, uint64(i), at)
		if uint64(i) == idx[0] {
			if len(idx) > 1 {
				e = cs.insertValue(e, et, el, idx[1:], at)
			} else {
				e = el
			}
		}
		ids[i] = cs.vid(e)
	}
	return cs.add(t, bitcode.CstCodeAggregate, ids, false)
}

// scalableSplat is splat(el) of the scalable vector type t as LLVM builds
// it: zeroinitializer for a zero element, else the shufflevector of an
// insertelement into poison with a zero mask.
func (cs *bcConsts) scalableSplat(t *Type, el *bcConst) *bcConst {
	if el.id >= 0 && el.code == bitcode.CstCodeNull {
		return cs.add(t, bitcode.CstCodeNull, nil, false)
	}
	poison := cs.add(t, bitcode.CstCodePoison, nil, false)
	// The index is an i64, as LLVM 19 writes it.
	zero := cs.add(typeI64, bitcode.CstCodeNull, nil, false)
	at := cs.a.p.tok.start
	ins := cs.add(t, bitcode.CstCodeCEInsertElt, []uint64{cs.vid(poison), cs.vid(el), uint64(cs.a.tys.id(typeI64, at)), cs.vid(zero)}, false)
	mask := cs.add(&Type{Kind: VectorType, Len: t.Len, Scalable: true, Elem: typeI32}, bitcode.CstCodeNull, nil, false)
	return cs.add(t, bitcode.CstCodeCEShuffleVec, []uint64{cs.vid(ins), cs.vid(poison), cs.vid(mask)}, false)
}

// bcHalfBits converts f to IEEE half (or bfloat) bits, reporting whether
// the conversion is exact.
func bcHalfBits(f float64, bf bool) (uint64, bool) {
	if bf {
		g := float32(f)
		b := math.Float32bits(g)
		if math.IsNaN(f) {
			return uint64(bcNaN32(math.Float64bits(f)) >> 16), true
		}
		return uint64(b >> 16), float64(g) == f && b&0xffff == 0
	}
	var sign uint64
	if math.Signbit(f) {
		sign = 1 << 15
		f = -f
	}
	switch {
	case math.IsNaN(f):
		return sign | 0x7c00 | 0x200 | (math.Float64bits(f)>>42)&0x3ff, true
	case math.IsInf(f, 0):
		return sign | 0x7c00, true
	case f == 0:
		return sign, true
	}
	frac, exp := math.Frexp(f) // f = frac·2^exp, frac in [0.5, 1)
	e := exp - 1
	if e > 15 {
		return 0, false
	}
	if e < -14 {
		// Subnormal: a multiple of 2^-24 below 2^-14.
		m := math.Ldexp(f, 24)
		return sign | uint64(m), m == math.Trunc(m)
	}
	m := math.Ldexp(frac*2-1, 10)
	return sign | uint64(e+15)<<10 | uint64(m), m == math.Trunc(m)
}
