package llvmir

// The lexer splits LLVM assembly into tokens. Tokens are byte ranges of the
// source; nothing is copied. It follows LLLexer: identifiers with sigils
// (@ % ! # $ ^), quoted names and strings with \xx escapes, integers,
// decimal and hexadecimal floats (0x, 0xK, 0xL, 0xM, 0xH, 0xR), bare words
// (keywords, types such as i32), labels (name:), punctuation and "...".

type tokKind uint8

const (
	tEOF       tokKind = iota
	tIdent             // bare word: keyword, type name, attribute
	tGlobal            // @name, @"name"
	tGlobalN           // @N
	tLocal             // %name, %"name"
	tLocalN            // %N
	tMetaVar           // !name
	tMetaID            // !N
	tMetaStr           // !"…"
	tExcl              // ! (followed by { usually)
	tAttrID            // #N
	tHashIdent         // #dbg_value and other #words (debug records)
	tComdat            // $name, $"name"
	tSummary           // ^N
	tString            // "…"
	tCString           // c"…"
	tInt               // -?[0-9]+, s0x…, u0x…
	tFloat             // 1.5, -2.0e+00, 0x…, 0xK…
	tLabel             // name: or "name": or N:
	tPunct             // one of = , * ( ) [ ] { } < > : | and others
	tDots              // ...
	tBad               // a byte that starts no token
)

var tokNames = [...]string{
	tEOF: "end of input", tIdent: "identifier", tGlobal: "global name", tGlobalN: "global number",
	tLocal: "local name", tLocalN: "local number", tMetaVar: "metadata name", tMetaID: "metadata number",
	tMetaStr: "metadata string", tExcl: "'!'", tAttrID: "attribute group", tHashIdent: "debug record",
	tComdat: "comdat name", tSummary: "summary id", tString: "string", tCString: "c string",
	tInt: "integer", tFloat: "floating-point number", tLabel: "label", tPunct: "punctuation",
	tDots: "'...'", tBad: "invalid character",
}

type token struct {
	kind       tokKind
	start, end int // byte range in the source
}

// Character classes.
const (
	cLetter = 1 << iota // [A-Za-z_]
	cDigit              // [0-9]
	cIdent              // [-A-Za-z0-9_.$] (continuation of names)
	cHex                // [0-9A-Fa-f]
	cSpace              // space, tab, CR, LF
)

var charClass [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			k |= cLetter | cIdent
		case c >= '0' && c <= '9':
			k |= cDigit | cIdent | cHex
		case c == '-', c == '.', c == '$':
			k |= cIdent
		case c == ' ', c == '\t', c == '\r', c == '\n':
			k |= cSpace
		}
		if (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') {
			k |= cHex
		}
		charClass[c] = k
	}
}

func isLetter(c byte) bool { return charClass[c]&cLetter != 0 }
func isDigit(c byte) bool  { return charClass[c]&cDigit != 0 }
func isIdent(c byte) bool  { return charClass[c]&cIdent != 0 }
func isHex(c byte) bool    { return charClass[c]&cHex != 0 }
func isSpace(c byte) bool  { return charClass[c]&cSpace != 0 }

// lexer scans src[pos:end].
type lexer struct {
	src []byte
	pos int
	end int
	// bad is set when a token could not be lexed (unterminated string); the
	// token then has kind tBad and badMsg says why.
	badMsg string
}

// skipSpace skips whitespace and comments.
func (l *lexer) skipSpace() {
	src, i, n := l.src, l.pos, l.end
	for i < n {
		c := src[i]
		if isSpace(c) {
			i++
			continue
		}
		if c == ';' {
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		}
		break
	}
	l.pos = i
}

// next returns the next token.
func (l *lexer) next() token {
	l.skipSpace()
	src, i, n := l.src, l.pos, l.end
	if i >= n {
		return token{kind: tEOF, start: n, end: n}
	}
	start := i
	c := src[i]
	kind := tPunct
	switch {
	case isLetter(c):
		// c"…" string, keyword or label.
		if c == 'c' && i+1 < n && src[i+1] == '"' {
			i = l.skipString(i + 1)
			if i < 0 {
				return l.bad(start, "unterminated string constant")
			}
			kind = tCString
			break
		}
		i++
		for i < n && charClass[src[i]]&(cLetter|cDigit) != 0 {
			i++
		}
		// A label may hold . $ - as well.
		j := i
		for j < n && isIdent(src[j]) {
			j++
		}
		if j < n && src[j] == ':' {
			i, kind = j+1, tLabel
			break
		}
		kind = tIdent
	case isDigit(c) || c == '-' || c == '+':
		return l.lexNumber(start)
	case c == '@' || c == '%' || c == '$':
		i++
		switch {
		case i < n && src[i] == '"':
			i = l.skipString(i)
			if i < 0 {
				return l.bad(start, "unterminated quoted name")
			}
			if c == '@' {
				kind = tGlobal
			} else if c == '%' {
				kind = tLocal
			} else {
				kind = tComdat
			}
			if c != '$' && i < n && src[i] == ':' {
				i++
				kind = tLabel
			}
		case c != '$' && i < n && isDigit(src[i]):
			for i < n && isDigit(src[i]) {
				i++
			}
			if c == '@' {
				kind = tGlobalN
			} else {
				kind = tLocalN
			}
		case i < n && (isIdent(src[i]) || src[i] == '\\'):
			for i < n && (isIdent(src[i]) || src[i] == '\\') {
				i++
			}
			switch c {
			case '@':
				kind = tGlobal
			case '%':
				kind = tLocal
			default:
				kind = tComdat
			}
		default:
			return l.bad(start, "expected a name after '"+string(c)+"'")
		}
	case c == '!':
		i++
		switch {
		case i < n && src[i] == '"':
			i = l.skipString(i)
			if i < 0 {
				return l.bad(start, "unterminated metadata string")
			}
			kind = tMetaStr
		case i < n && isDigit(src[i]):
			for i < n && isDigit(src[i]) {
				i++
			}
			kind = tMetaID
		case i < n && (isIdent(src[i]) || src[i] == '\\'):
			for i < n && (isIdent(src[i]) || src[i] == '\\') {
				i++
			}
			kind = tMetaVar
		default:
			kind = tExcl
		}
	case c == '#':
		i++
		switch {
		case i < n && isDigit(src[i]):
			for i < n && isDigit(src[i]) {
				i++
			}
			kind = tAttrID
		case i < n && isLetter(src[i]):
			for i < n && charClass[src[i]]&(cLetter|cDigit) != 0 {
				i++
			}
			kind = tHashIdent
		default:
			return l.bad(start, "expected a number after '#'")
		}
	case c == '^':
		i++
		if i >= n || !isDigit(src[i]) {
			return l.bad(start, "expected a number after '^'")
		}
		for i < n && isDigit(src[i]) {
			i++
		}
		kind = tSummary
	case c == '"':
		i = l.skipString(i)
		if i < 0 {
			return l.bad(start, "unterminated string constant")
		}
		kind = tString
		if i < n && src[i] == ':' {
			i++
			kind = tLabel
		}
	case c == '.':
		if i+2 < n && src[i+1] == '.' && src[i+2] == '.' {
			i += 3
			kind = tDots
		} else {
			// A label such as ".LBB0:".
			j := i
			for j < n && isIdent(src[j]) {
				j++
			}
			if j < n && src[j] == ':' {
				i, kind = j+1, tLabel
			} else {
				return l.bad(start, "unexpected '.'")
			}
		}
	default:
		switch c {
		case '=', ',', '*', '(', ')', '[', ']', '{', '}', '<', '>', ':', '|':
			i++
		default:
			return l.bad(start, "unexpected character")
		}
	}
	l.pos = i
	return token{kind: kind, start: start, end: i}
}

func (l *lexer) bad(start int, msg string) token {
	l.badMsg = msg
	end := start + 1
	if end > l.end {
		end = l.end
	}
	l.pos = l.end // stop lexing: the caller reports the error
	return token{kind: tBad, start: start, end: end}
}

// skipString returns the offset after the string whose opening quote is at
// i, or -1 when it is unterminated. LLVM strings have no escaped quotes.
func (l *lexer) skipString(i int) int {
	for j := i + 1; j < l.end; j++ {
		if l.src[j] == '"' {
			return j + 1
		}
	}
	return -1
}

// lexNumber lexes integers, decimal floats, hexadecimal floats, s0x/u0x
// hexadecimal integers and numeric labels.
func (l *lexer) lexNumber(start int) token {
	src, i, n := l.src, start, l.end
	if src[i] == '-' || src[i] == '+' {
		i++
		if i >= n || !isDigit(src[i]) {
			// A label like "-foo:" is not valid LLVM either.
			return l.bad(start, "expected a number")
		}
	}
	if src[i] == '0' && i+1 < n && src[i+1] == 'x' {
		i += 2
		if i < n && (src[i] == 'K' || src[i] == 'L' || src[i] == 'M' || src[i] == 'H' || src[i] == 'R') {
			i++
		}
		h := i
		for i < n && isHex(src[i]) {
			i++
		}
		if i == h {
			return l.bad(start, "expected hexadecimal digits")
		}
		l.pos = i
		return token{kind: tFloat, start: start, end: i}
	}
	for i < n && isDigit(src[i]) {
		i++
	}
	// A numeric label "12:".
	if i < n && src[i] == ':' && src[start] != '-' && src[start] != '+' {
		l.pos = i + 1
		return token{kind: tLabel, start: start, end: i + 1}
	}
	kind := tInt
	if i < n && src[i] == '.' {
		kind = tFloat
		i++
		for i < n && isDigit(src[i]) {
			i++
		}
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < n && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < n && isDigit(src[j]) {
			kind = tFloat
			i = j
			for i < n && isDigit(src[i]) {
				i++
			}
		}
	}
	l.pos = i
	return token{kind: kind, start: start, end: i}
}
