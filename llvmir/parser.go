package llvmir

import (
	"strconv"
)

// parser reads tokens with one token of lookahead. Errors inside one entity
// abort that entity (by panicking with *parseError, recovered at the
// entity's boundary); the module parse then resynchronizes at the next
// top-level line.
type parser struct {
	m       *Module
	file    string
	src     []byte
	lx      lexer
	tok     token // the current (not yet consumed) token
	prevEnd int   // end of the last consumed token
	lines   *[]int
	errs    ErrorList
	// implicit is the intrinsics called without a declaration (@name).
	implicit map[string]bool

	// References found while scanning the current entity.
	refs     []rawRef
	mdRefs   []rawMD
	selfAt   int     // offset of the entity's own name token, not a reference
	calleeAt int     // offset of the callee token of the call being scanned
	numAt    bool    // an @N reference was seen in the current entity
	groups   []int32 // #N attribute group references of the current entity

	// depth is how many types, constants and metadata nodes enclose the
	// current token (see MaxNesting).
	depth int

	// bodies, when set, are the workers that scan function bodies
	// (bodies.go); pending is the body the current entity left to them.
	bodies  *bodies
	pending *bodyTask
	// helper says the parser is a bitcode writer's helper (bcw_ahead.go),
	// which reads the module while the writer does: it adds nothing to
	// the module's tables.
	helper bool
}

// MaxNesting is how deeply types, constants and metadata nodes may nest:
// an array of arrays, a pointer to a pointer (typed pointers), a struct
// inside a struct (named structs included), a constant expression over a
// constant expression, a metadata node inside a node. Real modules stay far
// below it; deeper input is an error at the first token beyond it, so
// that no input exhausts the stack of the recursive parser.
const MaxNesting = 1000

// enter opens one level of nesting of what ("type", "constant",
// "metadata") at the current token; the caller restores p.depth when the
// level ends.
func (p *parser) enter(what string) {
	p.depth++
	if p.depth > MaxNesting {
		p.fail(p.tok.start, what+" nested deeper than "+strconv.Itoa(MaxNesting)+" levels")
	}
}

// rawRef is an @-reference found by the scanner, resolved after the parse.
type rawRef struct {
	start, end int32 // the token (with '@')
	callee     bool  // the callee of a direct call
}

// rawMD is a !N reference found by the scanner.
type rawMD struct {
	id, off int32
}

type parseError struct {
	off int
	msg string
}

func (p *parser) fail(off int, msg string) {
	panic(&parseError{off: off, msg: msg})
}

func (p *parser) failTok(msg string) {
	if p.tok.kind == tEOF {
		p.fail(p.tok.start, msg+", found end of input")
	}
	p.fail(p.tok.start, msg+", found '"+string(p.bytes(p.tok))+"'")
}

func (p *parser) errorAt(off int, msg string) *Error {
	l, c := position(p.src, p.lines, off)
	return &Error{File: p.file, Line: l, Col: c, Msg: msg}
}

// guard runs f and turns a parse failure into an error.
func (p *parser) guard(f func()) (err *Error) {
	p.depth = 0
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(*parseError)
			if !ok {
				panic(r)
			}
			err = p.errorAt(pe.off, pe.msg)
		}
	}()
	f()
	return nil
}

// next consumes the current token and lexes the following one.
func (p *parser) next() {
	p.prevEnd = p.tok.end
	p.tok = p.lx.next()
	if p.tok.kind == tBad {
		p.fail(p.tok.start, p.lx.badMsg)
	}
}

// reset positions the lexer at off and loads the token there.
func (p *parser) reset(off int) {
	p.lx.pos = off
	p.prevEnd = off
	p.tok = p.lx.next()
	if p.tok.kind == tBad {
		p.fail(p.tok.start, p.lx.badMsg)
	}
}

type parserState struct {
	tok     token
	pos     int
	prevEnd int
}

func (p *parser) save() parserState { return parserState{p.tok, p.lx.pos, p.prevEnd} }
func (p *parser) restore(s parserState) {
	p.tok, p.lx.pos, p.prevEnd = s.tok, s.pos, s.prevEnd
}

func (p *parser) bytes(t token) []byte { return p.src[t.start:t.end] }
func (p *parser) text(t token) string  { return str(p.src[t.start:t.end]) }

func (p *parser) isIdent(word string) bool {
	return p.tok.kind == tIdent && p.text(p.tok) == word
}

func (p *parser) isPunct(c byte) bool {
	return p.tok.kind == tPunct && p.src[p.tok.start] == c
}

func (p *parser) acceptIdent(word string) bool {
	if p.isIdent(word) {
		p.next()
		return true
	}
	return false
}

func (p *parser) acceptPunct(c byte) bool {
	if p.isPunct(c) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectPunct(c byte) {
	if !p.isPunct(c) {
		p.failTok("expected '" + string(c) + "'")
	}
	p.next()
}

func (p *parser) expectIdent(word string) {
	if !p.isIdent(word) {
		p.failTok("expected '" + word + "'")
	}
	p.next()
}

func (p *parser) expectEOF() {
	if p.tok.kind != tEOF {
		p.failTok("expected end of input")
	}
}

// name returns the decoded name of a sigil token (@x, %x, $x, !x).
func (p *parser) name(t token) string {
	b := p.src[t.start+1 : t.end]
	if t.kind == tLabel {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[0] == '"' {
		return unescape(b[1 : len(b)-1])
	}
	return unescape(b)
}

// stringVal returns the decoded contents of a string token ("…", c"…",
// !"…").
func (p *parser) stringVal(t token) string {
	b := p.src[t.start:t.end]
	for len(b) > 0 && b[0] != '"' {
		b = b[1:]
	}
	return unescape(b[1 : len(b)-1])
}

func (p *parser) expectString() string {
	if p.tok.kind != tString {
		p.failTok("expected a string")
	}
	s := p.stringVal(p.tok)
	p.next()
	return s
}

// uintTok parses the current token as an unsigned integer and consumes it.
func (p *parser) expectUint(what string) uint64 {
	if p.tok.kind != tInt {
		p.failTok("expected " + what)
	}
	v, err := strconv.ParseUint(p.text(p.tok), 10, 64)
	if err != nil {
		p.fail(p.tok.start, "invalid "+what+" '"+p.text(p.tok)+"'")
	}
	p.next()
	return v
}

// number of a numbered token (@N, %N, !N, #N, ^N).
func (p *parser) number(t token) int {
	v, err := strconv.Atoi(str(p.src[t.start+1 : t.end]))
	if err != nil || v < 0 {
		p.fail(t.start, "number out of range")
	}
	return v
}

// skipBalanced consumes an opening bracket token and everything up to and
// including its matching closer.
func (p *parser) skipBalanced() {
	open := p.src[p.tok.start]
	var stack []byte
	for {
		if p.tok.kind == tEOF {
			p.fail(p.tok.start, "unbalanced '"+string(open)+"'")
		}
		if p.tok.kind == tPunct {
			switch c := p.src[p.tok.start]; c {
			case '(', '[', '{', '<':
				stack = append(stack, c)
			case ')', ']', '}', '>':
				want := map[byte]byte{')': '(', ']': '[', '}': '{', '>': '<'}[c]
				if len(stack) == 0 || stack[len(stack)-1] != want {
					p.fail(p.tok.start, "unbalanced '"+string(c)+"'")
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					p.next()
					return
				}
			}
		}
		p.next()
	}
}

// ---- types ----

// namedType returns the module's shared type for %name, creating an
// (as yet undefined, opaque) named struct on first mention.
func (p *parser) namedType(name string) *Type {
	if p.bodies != nil {
		p.bodies.types.Lock()
		defer p.bodies.types.Unlock()
	}
	t := p.m.types[name]
	if t == nil && p.m.baseTypes != nil {
		t = p.m.baseTypes[name]
	}
	if t == nil {
		if p.helper {
			p.fail(p.tok.start, "a struct type the module does not define") // the writer parses it
		}
		t = &Type{Kind: StructType, Name: name, Opaque: true}
		p.m.types[name] = t
	}
	return t
}

// parseType parses a type, including typed-pointer and function-type
// suffixes.
func (p *parser) parseType() *Type {
	d := p.depth
	p.enter("type")
	t := p.parseBaseType()
	for {
		switch {
		case p.isPunct('*'):
			p.enter("type")
			p.next()
			t = &Type{Kind: PtrType, Elem: t}
		case p.isPunct('('):
			p.enter("type")
			t = p.parseFuncTypeParams(t)
		case p.isIdent("addrspace"):
			st := p.save()
			p.next()
			as, ok := p.tryAddrSpaceArg()
			if !ok || !p.isPunct('*') {
				p.restore(st)
				p.depth = d
				return t
			}
			p.enter("type")
			p.next()
			t = &Type{Kind: PtrType, Elem: t, AddrSpace: as}
		default:
			p.depth = d
			return t
		}
	}
}

// tryAddrSpaceArg parses "(N)" after addrspace.
func (p *parser) tryAddrSpaceArg() (uint32, bool) {
	if !p.isPunct('(') {
		return 0, false
	}
	p.next()
	if p.tok.kind != tInt {
		return 0, false
	}
	v, err := strconv.ParseUint(p.text(p.tok), 10, 32)
	if err != nil {
		return 0, false
	}
	p.next()
	if !p.isPunct(')') {
		return 0, false
	}
	p.next()
	return uint32(v), true
}

func (p *parser) parseAddrSpace() uint32 {
	p.expectIdent("addrspace")
	at := p.tok.start
	as, ok := p.tryAddrSpaceArg()
	if !ok {
		p.fail(at, "expected '(N)' after addrspace")
	}
	return as
}

func (p *parser) parseFuncTypeParams(ret *Type) *Type {
	p.expectPunct('(')
	ft := &Type{Kind: FuncType, Ret: ret}
	for !p.isPunct(')') {
		if p.tok.kind == tDots {
			p.next()
			ft.VarArg = true
			break
		}
		ft.Fields = append(ft.Fields, p.parseType())
		// Function types in typed-pointer IR may carry parameter attributes
		// in casts of old IR; LLVM rejects them, and so do we.
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
	return ft
}

var simpleTypes = map[string]*Type{
	"void": typeVoid, "half": typeHalf, "bfloat": typeBFloat, "float": typeFloat, "double": typeDouble,
	"fp128": typeFP128, "x86_fp80": typeX86FP80, "ppc_fp128": typePPCFP128, "label": typeLabel,
	"metadata": typeMetadata, "token": typeToken, "x86_mmx": typeX86MMX, "x86_amx": typeX86AMX,
	"i1": typeI1, "i8": typeI8, "i16": typeI16, "i32": typeI32, "i64": typeI64,
}

func isTypeKeyword(w []byte) bool {
	if _, ok := simpleTypes[str(w)]; ok {
		return true
	}
	switch str(w) {
	case "ptr", "target":
		return true
	}
	if len(w) >= 2 && w[0] == 'i' {
		for _, c := range w[1:] {
			if !isDigit(c) {
				return false
			}
		}
		return true
	}
	return false
}

func (p *parser) parseBaseType() *Type {
	t := p.tok
	switch t.kind {
	case tLocal:
		p.next()
		return p.namedType(p.name(t))
	case tLocalN:
		p.next()
		return p.namedType(str(p.src[t.start+1 : t.end]))
	case tPunct:
		switch p.src[t.start] {
		case '{':
			return p.parseStructBody(false)
		case '[':
			p.next()
			n := p.expectUint("array length")
			p.expectIdent("x")
			el := p.parseType()
			p.expectPunct(']')
			return &Type{Kind: ArrayType, Len: n, Elem: el}
		case '<':
			p.next()
			if p.isPunct('{') {
				st := p.parseStructBody(true)
				p.expectPunct('>')
				return st
			}
			scalable := false
			if p.acceptIdent("vscale") {
				p.expectIdent("x")
				scalable = true
			}
			n := p.expectUint("vector length")
			p.expectIdent("x")
			el := p.parseType()
			p.expectPunct('>')
			return &Type{Kind: VectorType, Len: n, Elem: el, Scalable: scalable}
		}
	case tIdent:
		w := p.text(t)
		if st, ok := simpleTypes[w]; ok {
			p.next()
			return st
		}
		switch w {
		case "ptr":
			p.next()
			if p.isIdent("addrspace") {
				as := p.parseAddrSpace()
				if as != 0 {
					return &Type{Kind: PtrType, AddrSpace: as}
				}
			}
			return typePtr
		case "target":
			return p.parseTargetType()
		}
		if len(w) >= 2 && w[0] == 'i' && isDigits(w[1:]) {
			bits, err := strconv.ParseUint(w[1:], 10, 32)
			if err != nil || bits == 0 || bits > 1<<23 {
				p.fail(t.start, "invalid integer type width '"+w+"'")
			}
			p.next()
			return &Type{Kind: IntType, Bits: uint32(bits)}
		}
	}
	p.failTok("expected a type")
	return nil
}

func (p *parser) parseStructBody(packed bool) *Type {
	p.expectPunct('{')
	st := &Type{Kind: StructType, Packed: packed}
	for !p.isPunct('}') {
		st.Fields = append(st.Fields, p.parseType())
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct('}')
	return st
}

func (p *parser) parseTargetType() *Type {
	p.expectIdent("target")
	p.expectPunct('(')
	t := &Type{Kind: TargetType, TargetName: p.expectString()}
	for p.acceptPunct(',') {
		if p.tok.kind == tInt {
			t.TargetInts = append(t.TargetInts, p.expectUint("target type parameter"))
			continue
		}
		if len(t.TargetInts) > 0 {
			p.failTok("expected an integer parameter")
		}
		t.TargetTypes = append(t.TargetTypes, p.parseType())
	}
	p.expectPunct(')')
	return t
}

// ---- attributes ----

// typeAttrs take a type in parentheses.
var typeAttrs = map[string]bool{
	"sret": true, "byval": true, "byref": true, "inalloca": true, "preallocated": true, "elementtype": true,
}

// paramAttrKeywords are the parameter and return attributes, used to tell
// an attribute from a value where both may follow a type.
var paramAttrKeywords = map[string]bool{
	"zeroext": true, "signext": true, "noext": true, "inreg": true, "byval": true, "byref": true,
	"inalloca": true, "sret": true, "noalias": true, "nocapture": true, "nofree": true, "nest": true,
	"returned": true, "nonnull": true, "dereferenceable": true, "dereferenceable_or_null": true,
	"swiftself": true, "swiftasync": true, "swifterror": true, "immarg": true, "noundef": true,
	"nofpclass": true, "align": true, "alignstack": true, "allocalign": true, "allocptr": true,
	"readnone": true, "readonly": true, "writeonly": true, "writable": true, "dead_on_unwind": true, "dead_on_return": true,
	"preallocated": true, "elementtype": true, "range": true, "initializes": true, "captures": true,
}

// parseAttr parses one attribute at the current token: a string attribute,
// a keyword, a keyword with "(…)" or with an integer ("align 4").
func (p *parser) parseAttr() Attr {
	t := p.tok
	if t.kind == tString {
		a := Attr{Key: p.stringVal(t), String: true}
		p.next()
		if p.acceptPunct('=') {
			if p.tok.kind != tString {
				p.failTok("expected a string attribute value")
			}
			a.Value, a.HasValue = p.stringVal(p.tok), true
			p.next()
		}
		return a
	}
	if t.kind != tIdent {
		p.failTok("expected an attribute")
	}
	a := Attr{Key: p.text(t)}
	p.next()
	switch {
	case p.isPunct('('):
		if typeAttrs[a.Key] {
			p.next()
			open := p.tok.start
			a.Type = p.parseType()
			a.Value, a.HasValue = trimSpace(str(p.src[open:p.prevEnd])), true
			p.expectPunct(')')
			return a
		}
		open := p.tok.end
		p.skipBalanced()
		a.Value, a.HasValue = trimSpace(str(p.src[open:p.prevEnd-1])), true
	case p.isPunct('='):
		// attributes #N = { alignstack=16 uwtable=sync }
		p.next()
		if p.tok.kind != tInt && p.tok.kind != tIdent {
			p.failTok("expected an attribute value")
		}
		a.Value, a.HasValue = p.text(p.tok), true
		p.next()
	case (a.Key == "align" || a.Key == "alignstack" || a.Key == "dereferenceable" ||
		a.Key == "dereferenceable_or_null") && p.tok.kind == tInt:
		a.Value, a.HasValue = p.text(p.tok), true
		p.next()
	}
	return a
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}
