package llvmir

import "bytes"

// The scanner walks entity text byte by byte, without tokenizing, to record
// every @global and !N reference, skipping comments and the contents of
// strings, metadata strings and quoted names. In a function body it also
// tracks brace depth (to find the body's end) and hands every call, invoke
// and callbr to parseCall.
//
// Most of a body is quiet: words, numbers, %names, spaces and punctuation,
// none of which the scanner records. It skips such a stretch in one tight
// loop, up to the next byte that can start something it records (see
// scanStop), and goes through the text token by token only where the
// stretch may hold a call (its opcode's text appears in it) or ends in a
// comment (which a pending "%x =" outlives).

const (
	sBoring = iota
	sComment
	sQuote
	sAt
	sExcl
	sPercent
	sLBrace
	sRBrace
	sLetter
	sDigit
	sHash
)

var scanClass [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		switch {
		case c == ';':
			scanClass[c] = sComment
		case c == '"':
			scanClass[c] = sQuote
		case c == '@':
			scanClass[c] = sAt
		case c == '!':
			scanClass[c] = sExcl
		case c == '%':
			scanClass[c] = sPercent
		case c == '{':
			scanClass[c] = sLBrace
		case c == '}':
			scanClass[c] = sRBrace
		case c == '#':
			scanClass[c] = sHash
		case isLetter(byte(c)):
			scanClass[c] = sLetter
		case isDigit(byte(c)):
			scanClass[c] = sDigit
		}
	}
}

// scanStop is 1 for the bytes that end a quiet stretch: those that start
// a comment, a string, an @ or ! reference, a #N group, or open or close a
// brace. Any other byte is a space, punctuation, or part of a word, a
// number or a %name.
var scanStop [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		switch scanClass[c] {
		case sBoring, sLetter, sDigit, sPercent:
		default:
			scanStop[c] = 1
		}
	}
}

// scan records references in src[from:to] into p.refs and p.mdRefs,
// ignoring the token at p.selfAt (the entity's own name). With f set,
// src[from] is the '{' of f's body: scanning stops after the matching '}'
// (whose end it returns) and calls are parsed into f.Calls.
func (p *parser) scan(from, to int, f *Function) int {
	src := p.src
	i := from
	depth := 0
	pend := -1    // start of a pending "%x =" result
	pendEnd := -1 // end of its name
	prefix := -1  // start of a pending tail/musttail/notail marker
	slow := i     // tokens before slow are scanned one by one
	for i < to {
		if i >= slow && scanStop[src[i]] == 0 {
			var reset bool
			i, slow, reset = skipQuiet(src, i, slow, to, f != nil)
			if reset {
				pend, prefix = -1, -1
			}
			if i >= to {
				break
			}
		}
		switch scanClass[src[i]] {
		case sBoring:
			i++
			continue
		case sComment:
			i = afterLine(src, i, to)
			continue
		case sQuote:
			i = p.skipQuoted(i, to)
		case sAt:
			i = p.scanGlobalRef(i, to)
		case sExcl:
			i = p.scanMetadataRef(i, to)
		case sPercent:
			start := i
			i = p.skipLocalName(i+1, to)
			if f != nil {
				if eq := assignmentAt(src, i, to); eq >= 0 {
					pend, pendEnd, prefix = start, i, -1
					i = eq + 1
					continue
				}
			}
		case sLBrace:
			depth++
			i++
		case sRBrace:
			depth--
			i++
			if f != nil && depth == 0 {
				return i
			}
		case sDigit:
			i = identEnd(src, i, to)
		case sHash:
			i = p.scanGroupRef(i, to)
		case sLetter:
			start := i
			i = identEnd(src, i, to)
			if f == nil || (i < to && src[i] == ':') {
				break
			}
			switch w := str(src[start:i]); w {
			case "tail", "musttail", "notail":
				if prefix < 0 {
					prefix = start
				}
				continue
			case "call", "invoke", "callbr":
				cs := callStart(start, prefix, pend)
				f.Calls = append(f.Calls, p.parseCall(w, cs, i, pend, pendEnd))
			}
		}
		pend, prefix = -1, -1
	}
	if f != nil {
		p.fail(from, "expected '}' at the end of the function body")
	}
	return to
}

// skipQuiet skips the quiet stretch that starts at i, which ends at a stop
// byte j, and returns where scanning goes on, the new end of token-by-token
// scanning, and whether pend and prefix must be reset. Every token in the
// stretch ends before j, except a % whose quoted name starts at j. Scanned
// token by token, the stretch would record nothing, call nothing and fail
// nowhere: it would only reset pend and prefix, as the token at j does
// anyway. Not so where, in a body, the stretch may hold a call or ends in a
// comment: there it is scanned token by token, from its start or from a
// line of it where the state is known.
func skipQuiet(src []byte, i, slow, to int, body bool) (next, slowEnd int, reset bool) {
	j := i + 1 + quietLen(src[i+1:to])
	q := -1
	if body {
		q = tokenwiseAt(src, i, j, to)
	}
	if q >= 0 {
		at, reset := quietResume(src, i, q)
		return at, q + 1, reset
	}
	if j < to && src[j] == '"' && src[j-1] == '%' {
		j--
	}
	return j, slow, false
}

// tokenwiseAt returns where, in a body, the quiet stretch src[i:j] must be
// scanned token by token from: the first text that may be part of a call's
// opcode, or j when a comment starts there, else -1.
func tokenwiseAt(src []byte, i, j, to int) int {
	if k := callText(src[i:j]); k >= 0 {
		return i + k
	}
	if j < to && src[j] == ';' {
		return j
	}
	return -1
}

// afterLine returns the offset after the end of the line that i is on, or
// to when the line does not end before it.
func afterLine(src []byte, i, to int) int {
	j := bytes.IndexByte(src[i:to], '\n')
	if j < 0 {
		return to
	}
	return i + j + 1
}

// identEnd returns the end of the run of identifier bytes that starts at i.
func identEnd(src []byte, i, to int) int {
	for i < to && isIdent(src[i]) {
		i++
	}
	return i
}

// nameEnd returns the end of the unquoted name that starts at i.
func nameEnd(src []byte, i, to int) int {
	for i < to && (isIdent(src[i]) || src[i] == '\\') {
		i++
	}
	return i
}

// scanGlobalRef records the @ reference at i (unless it is the entity's
// own name) and returns its end.
func (p *parser) scanGlobalRef(i, to int) int {
	src := p.src
	start := i
	i++
	switch {
	case i < to && src[i] == '"':
		i = p.skipQuoted(i, to)
	case i < to && isDigit(src[i]):
		for i < to && isDigit(src[i]) {
			i++
		}
		p.numAt = true
	default:
		i = nameEnd(src, i, to)
		if i == start+1 {
			p.fail(start, "expected a name after '@'")
		}
	}
	if start != p.selfAt {
		p.refs = append(p.refs, rawRef{start: int32(start), end: int32(i), callee: start == p.calleeAt})
	}
	return i
}

// scanMetadataRef records the !N reference at i (unless it is the
// entity's own name), skips a !"string" or !name there, and returns the
// end.
func (p *parser) scanMetadataRef(i, to int) int {
	src := p.src
	start := i
	i++
	switch {
	case i < to && src[i] == '"':
		i = p.skipQuoted(i, to)
	case i < to && isDigit(src[i]):
		n := 0
		for i < to && isDigit(src[i]) {
			if n < 1<<30 {
				n = n*10 + int(src[i]-'0')
			}
			i++
		}
		if n >= 1<<30 {
			p.fail(start, "metadata number out of range")
		}
		if start != p.selfAt {
			p.mdRefs = append(p.mdRefs, rawMD{id: int32(n), off: int32(start)})
		}
	default:
		i = nameEnd(src, i, to)
	}
	return i
}

// skipLocalName returns the end of the %name whose text (quoted or not)
// starts at i, just after the '%'.
func (p *parser) skipLocalName(i, to int) int {
	if i < to && p.src[i] == '"' {
		return p.skipQuoted(i, to)
	}
	return nameEnd(p.src, i, to)
}

// assignmentAt returns the offset of the '=' that follows i after blanks,
// making the name before i an instruction's result, or -1.
func assignmentAt(src []byte, i, to int) int {
	for i < to && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i < to && src[i] == '=' {
		return i
	}
	return -1
}

// scanGroupRef records the #N attribute group reference at i and returns
// its end.
func (p *parser) scanGroupRef(i, to int) int {
	src := p.src
	i++
	n := int32(0)
	start := i
	for i < to && isDigit(src[i]) {
		if n < 1<<30 {
			n = n*10 + int32(src[i]-'0')
		}
		i++
	}
	if i > start {
		p.addGroup(n)
	}
	return i
}

// callStart returns where the call whose opcode starts at op begins: at
// its result, else at its tail marker, else at the opcode.
func callStart(op, prefix, pend int) int {
	if pend >= 0 {
		return pend
	}
	if prefix >= 0 {
		return prefix
	}
	return op
}

// scanInert marks the bytes that are never part of a token in a quiet
// stretch and leave pend and prefix as they are: spaces and punctuation
// other than '=' (which ends a "%x =" result) and '\\' (which can be
// part of a name).
var scanInert [256]bool

func init() {
	for c := 0; c < 256; c++ {
		scanInert[c] = scanClass[c] == sBoring && !isIdent(byte(c)) && c != '=' && c != '\\'
	}
}

// quietResume returns where, in the quiet stretch src[i:q], token-by-token
// scanning can start and reach q in the state it would reach from i: the
// start of q's line when the text before it ends in a word, number or
// %name that resets pend and prefix (reset true) or is only spaces and
// punctuation since i (reset false), else i.
func quietResume(src []byte, i, q int) (at int, reset bool) {
	l := bytes.LastIndexByte(src[i:q], '\n')
	if l < 0 {
		return i, false
	}
	l += i + 1
	b := l - 1
	for b >= i && scanInert[src[b]] {
		b--
	}
	if b < i {
		return l, false
	}
	// The last token before the line is the run of identifier bytes
	// that ends at b, if it is a %name, a number or a word other than
	// tail, musttail and notail.
	r := b
	for r > i && isIdent(src[r-1]) {
		r--
	}
	if !isIdent(src[b]) || r == i {
		return i, false
	}
	// The byte before the run is a '%', which starts a name, or one that
	// cannot be part of a token, or '=' or '\\', after which the run
	// starts a token or (after '\\') ends a %name: either way a number
	// or a word resets.
	switch {
	case src[r-1] == '%':
		return l, true
	case isDigit(src[r]):
		return l, true
	case isLetter(src[r]):
		switch str(src[r : b+1]) {
		case "tail", "musttail", "notail":
			return i, false
		}
		return l, true
	}
	return i, false
}

var callTexts = [...][]byte{[]byte("call"), []byte("voke")}

// callText returns the offset in b of the first text that can be part of
// the opcode of a call, a callbr or an invoke, or -1.
func callText(b []byte) int {
	k := bytes.Index(b, callTexts[0])
	if m := bytes.Index(b, callTexts[1]); m >= 0 {
		m = max(m-len("in"), 0)
		if k < 0 || m < k {
			k = m
		}
	}
	return k
}

// quietLen returns the length of the quiet text that b starts with.
func quietLen(b []byte) int { return lenWithout(b, &scanStop) }

// lenWithout returns the length of the text b starts with that holds no
// byte marked in stop.
func lenWithout(b []byte, stop *[256]uint8) int {
	i := 0
	// Eight bytes at a time, with one branch for all of them.
	for ; i+8 <= len(b); i += 8 {
		w := b[i : i+8 : i+8]
		if stop[w[0]]|stop[w[1]]|stop[w[2]]|stop[w[3]]|
			stop[w[4]]|stop[w[5]]|stop[w[6]]|stop[w[7]] != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if stop[b[i]] != 0 {
			return i
		}
	}
	return len(b)
}

// addGroup records a reference to attribute group #n, once.
func (p *parser) addGroup(n int32) {
	for _, g := range p.groups {
		if g == n {
			return
		}
	}
	p.groups = append(p.groups, n)
}

// skipQuoted returns the offset after the string whose quote is at i.
func (p *parser) skipQuoted(i, to int) int {
	j := bytes.IndexByte(p.src[i+1:to], '"')
	if j < 0 {
		p.fail(i, "unterminated string")
	}
	return i + 1 + j + 1
}

var fastMathFlags = map[string]bool{
	"fast": true, "nnan": true, "ninf": true, "nsz": true, "arcp": true, "contract": true,
	"afn": true, "reassoc": true,
}

// instrOpcodes end a call's trailing attributes when one follows on the
// same line.
var instrOpcodes = map[string]bool{
	"ret": true, "br": true, "switch": true, "indirectbr": true, "invoke": true, "resume": true,
	"unreachable": true, "cleanupret": true, "catchret": true, "catchswitch": true, "callbr": true,
	"fneg": true, "add": true, "fadd": true, "sub": true, "fsub": true, "mul": true, "fmul": true,
	"udiv": true, "sdiv": true, "fdiv": true, "urem": true, "srem": true, "frem": true, "shl": true,
	"lshr": true, "ashr": true, "and": true, "or": true, "xor": true, "extractelement": true,
	"insertelement": true, "shufflevector": true, "extractvalue": true, "insertvalue": true,
	"alloca": true, "load": true, "store": true, "fence": true, "cmpxchg": true, "atomicrmw": true,
	"getelementptr": true, "trunc": true, "zext": true, "sext": true, "fptrunc": true, "fpext": true,
	"fptoui": true, "fptosi": true, "uitofp": true, "sitofp": true, "ptrtoint": true, "inttoptr": true,
	"bitcast": true, "addrspacecast": true, "icmp": true, "fcmp": true, "phi": true, "select": true,
	"freeze": true, "call": true, "va_arg": true, "landingpad": true, "catchpad": true,
	"cleanuppad": true, "tail": true, "musttail": true, "notail": true, "uselistorder": true,
	"uselistorder_bb": true,
}

// parseCall parses the call whose opcode ends at opEnd; start is where the
// instruction begins and [resStart, resEnd) its result name (resStart < 0
// when none).
func (p *parser) parseCall(op string, start, opEnd, resStart, resEnd int) Call {
	c := Call{Start: start, Op: op}
	if resStart >= 0 {
		b := p.src[resStart+1 : resEnd]
		if len(b) > 0 && b[0] == '"' {
			c.Result = unescape(b[1 : len(b)-1])
		} else {
			c.Result = unescape(b)
			c.ResultNumbered = len(b) > 0 && isDigit(b[0])
		}
	}
	p.reset(opEnd)
	for p.tok.kind == tIdent && fastMathFlags[p.text(p.tok)] {
		p.next()
	}
	c.CallingConv = p.parseCallingConv()
	for (p.tok.kind == tIdent && !isTypeKeyword(p.bytes(p.tok))) || p.tok.kind == tString {
		if p.isIdent("addrspace") {
			p.parseAddrSpace()
			continue
		}
		c.RetAttrs = append(c.RetAttrs, p.parseAttr())
	}
	ty := p.parseType()
	ret := ty
	if ty.Kind == FuncType {
		c.FnType, ret = ty, ty.Ret
	}
	calleeStart := p.tok.start
	switch p.tok.kind {
	case tGlobal, tGlobalN:
		c.calleeTok = span{int32(p.tok.start), int32(p.tok.end)}
		p.calleeAt = p.tok.start
		p.next()
	case tLocal, tLocalN:
		p.next()
	case tIdent:
		if p.isIdent("asm") {
			c.InlineAsm = true
			p.skipValue()
			break
		}
		cst := p.parseValue(nil)
		c.castTok = cst.globalTok()
	default:
		p.failTok("expected a callee")
	}
	c.CalleeText = str(p.src[calleeStart:p.prevEnd])
	p.expectPunct('(')
	for !p.isPunct(')') {
		if p.tok.kind == tDots {
			p.next()
			break
		}
		var a Arg
		a.Type = p.parseType()
		for (p.tok.kind == tIdent && paramAttrKeywords[p.text(p.tok)]) || p.tok.kind == tString {
			a.Attrs = append(a.Attrs, p.parseAttr())
		}
		vstart := p.tok.start
		cst := p.parseValue(a.Type)
		a.Value = str(p.src[vstart:p.prevEnd])
		a.pointsTok = cst.globalTok()
		c.Args = append(c.Args, a)
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
	if c.FnType == nil {
		ps := make([]*Type, len(c.Args))
		for i := range c.Args {
			ps[i] = c.Args[i].Type
		}
		c.FnType = &Type{Kind: FuncType, Ret: ret, Fields: ps}
	}
	p.parseCallTail(&c)
	c.End = p.prevEnd
	return c
}

// parseCallTail consumes call-site attributes, operand bundles, the labels
// of invoke and callbr, and metadata attachments.
func (p *parser) parseCallTail(c *Call) {
	afterLabel := false
	for {
		t := p.tok
		switch t.kind {
		case tAttrID:
			c.AttrGroups = append(c.AttrGroups, p.number(t))
			p.next()
			continue
		case tString:
			c.FnAttrs = append(c.FnAttrs, p.parseAttr())
			continue
		case tPunct:
			switch p.src[t.start] {
			case '[':
				p.skipBalanced()
				continue
			case ',':
				st := p.save()
				p.next()
				if p.tok.kind == tMetaVar {
					p.parseAttachment()
					continue
				}
				p.restore(st)
			}
		case tLocal, tLocalN:
			if afterLabel {
				afterLabel = false
				p.next()
				continue
			}
		case tIdent:
			w := p.text(t)
			if c.Op != "call" {
				switch w {
				case "to", "unwind":
					p.next()
					continue
				case "label":
					p.next()
					afterLabel = true
					continue
				}
			}
			if bytes.IndexByte(p.src[p.prevEnd:t.start], '\n') < 0 && !instrOpcodes[w] {
				c.FnAttrs = append(c.FnAttrs, p.parseAttr())
				continue
			}
		}
		return
	}
}
