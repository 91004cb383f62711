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
			// i starts a quiet stretch, which ends at a stop byte j.
			// Every token in it ends before j, except a % whose quoted
			// name starts at j. Scanned token by token, the stretch
			// would record nothing, call nothing and fail nowhere: it
			// would only reset pend and prefix, as the token at j does
			// anyway. Not so where the stretch may hold a call or ends
			// in a comment: there it is scanned token by token, from
			// its start or from a line of it where the state is known.
			j := i + 1 + quietLen(src[i+1:to])
			q := -1
			if f != nil {
				if k := callText(src[i:j]); k >= 0 {
					q = i + k
				} else if j < to && src[j] == ';' {
					q = j
				}
			}
			if q < 0 {
				i = j
				if i >= to {
					break
				}
				if src[i] == '"' && src[i-1] == '%' {
					i--
				}
			} else {
				at, reset := quietResume(src, i, q)
				if reset {
					pend, prefix = -1, -1
				}
				i, slow = at, q+1
			}
		}
		switch scanClass[src[i]] {
		case sBoring:
			i++
			continue
		case sComment:
			j := bytes.IndexByte(src[i:to], '\n')
			if j < 0 {
				i = to
			} else {
				i += j + 1
			}
			continue
		case sQuote:
			i = p.skipQuoted(i, to)
		case sAt:
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
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
				if i == start+1 {
					p.fail(start, "expected a name after '@'")
				}
			}
			if start != p.selfAt {
				p.refs = append(p.refs, rawRef{start: int32(start), end: int32(i), callee: start == p.calleeAt})
			}
		case sExcl:
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
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
			}
		case sPercent:
			start := i
			i++
			if i < to && src[i] == '"' {
				i = p.skipQuoted(i, to)
			} else {
				for i < to && (isIdent(src[i]) || src[i] == '\\') {
					i++
				}
			}
			if f != nil {
				j := i
				for j < to && (src[j] == ' ' || src[j] == '\t') {
					j++
				}
				if j < to && src[j] == '=' {
					pend, pendEnd, prefix = start, i, -1
					i = j + 1
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
			for i < to && isIdent(src[i]) {
				i++
			}
		case sHash:
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
		case sLetter:
			start := i
			for i < to && isIdent(src[i]) {
				i++
			}
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
				cs := start
				if prefix >= 0 {
					cs = prefix
				}
				if pend >= 0 {
					cs = pend
				}
				c := p.parseCall(w, cs, i, pend, pendEnd)
				f.Calls = append(f.Calls, c)
			}
		}
		pend, prefix = -1, -1
	}
	if f != nil {
		p.fail(from, "expected '}' at the end of the function body")
	}
	return to
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
