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
	switch {
	case isLetter(c):
		return l.lexWord(start)
	case isDigit(c) || c == '-' || c == '+':
		return l.lexNumber(start)
	case c == '@' || c == '%' || c == '$':
		return l.lexSigilName(start)
	case c == '!':
		return l.lexMetadata(start)
	case c == '#':
		return l.lexHash(start)
	case c == '^':
		return l.lexSummary(start)
	case c == '"':
		return l.lexString(start)
	case c == '.':
		return l.lexDot(start)
	}
	switch c {
	case '=', ',', '*', '(', ')', '[', ']', '{', '}', '<', '>', ':', '|':
		return l.token(tPunct, start, i+1)
	}
	return l.bad(start, "unexpected character")
}

// token returns a token of kind over src[start:end], lexing on from end.
func (l *lexer) token(kind tokKind, start, end int) token {
	l.pos = end
	return token{kind: kind, start: start, end: end}
}

// lexWord lexes what starts with a letter: a c"…" string, a keyword or a
// label.
func (l *lexer) lexWord(start int) token {
	src, i, n := l.src, start, l.end
	if src[i] == 'c' && i+1 < n && src[i+1] == '"' {
		i = l.skipString(i + 1)
		if i < 0 {
			return l.bad(start, "unterminated string constant")
		}
		return l.token(tCString, start, i)
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
		return l.token(tLabel, start, j+1)
	}
	return l.token(tIdent, start, i)
}

// lexSigilName lexes an @, % or $ name: quoted, numbered (not $) or bare.
// A quoted @ or % name followed by ':' is a label.
func (l *lexer) lexSigilName(start int) token {
	src, n := l.src, l.end
	c := src[start]
	i := start + 1
	switch {
	case i < n && src[i] == '"':
		i = l.skipString(i)
		if i < 0 {
			return l.bad(start, "unterminated quoted name")
		}
		kind := sigilKind(c)
		if c != '$' && i < n && src[i] == ':' {
			i++
			kind = tLabel
		}
		return l.token(kind, start, i)
	case c != '$' && i < n && isDigit(src[i]):
		for i < n && isDigit(src[i]) {
			i++
		}
		if c == '@' {
			return l.token(tGlobalN, start, i)
		}
		return l.token(tLocalN, start, i)
	case i < n && (isIdent(src[i]) || src[i] == '\\'):
		for i < n && (isIdent(src[i]) || src[i] == '\\') {
			i++
		}
		return l.token(sigilKind(c), start, i)
	}
	return l.bad(start, "expected a name after '"+string(c)+"'")
}

// sigilKind is the kind of a named (not numbered) token with sigil c.
func sigilKind(c byte) tokKind {
	switch c {
	case '@':
		return tGlobal
	case '%':
		return tLocal
	}
	return tComdat
}

// lexMetadata lexes what starts with '!': a metadata string, number or
// name, or a lone '!'.
func (l *lexer) lexMetadata(start int) token {
	src, i, n := l.src, start+1, l.end
	switch {
	case i < n && src[i] == '"':
		i = l.skipString(i)
		if i < 0 {
			return l.bad(start, "unterminated metadata string")
		}
		return l.token(tMetaStr, start, i)
	case i < n && isDigit(src[i]):
		for i < n && isDigit(src[i]) {
			i++
		}
		return l.token(tMetaID, start, i)
	case i < n && (isIdent(src[i]) || src[i] == '\\'):
		for i < n && (isIdent(src[i]) || src[i] == '\\') {
			i++
		}
		return l.token(tMetaVar, start, i)
	}
	return l.token(tExcl, start, i)
}

// lexHash lexes an attribute group #N or a debug record #word.
func (l *lexer) lexHash(start int) token {
	src, i, n := l.src, start+1, l.end
	switch {
	case i < n && isDigit(src[i]):
		for i < n && isDigit(src[i]) {
			i++
		}
		return l.token(tAttrID, start, i)
	case i < n && isLetter(src[i]):
		for i < n && charClass[src[i]]&(cLetter|cDigit) != 0 {
			i++
		}
		return l.token(tHashIdent, start, i)
	}
	return l.bad(start, "expected a number after '#'")
}

// lexSummary lexes a summary id ^N.
func (l *lexer) lexSummary(start int) token {
	src, i, n := l.src, start+1, l.end
	if i >= n || !isDigit(src[i]) {
		return l.bad(start, "expected a number after '^'")
	}
	for i < n && isDigit(src[i]) {
		i++
	}
	return l.token(tSummary, start, i)
}

// lexString lexes a string, or a quoted label when ':' follows it.
func (l *lexer) lexString(start int) token {
	i := l.skipString(start)
	if i < 0 {
		return l.bad(start, "unterminated string constant")
	}
	if i < l.end && l.src[i] == ':' {
		return l.token(tLabel, start, i+1)
	}
	return l.token(tString, start, i)
}

// lexDot lexes "..." or a label that starts with '.', such as ".LBB0:".
func (l *lexer) lexDot(start int) token {
	src, i, n := l.src, start, l.end
	if i+2 < n && src[i+1] == '.' && src[i+2] == '.' {
		return l.token(tDots, start, i+3)
	}
	j := i
	for j < n && isIdent(src[j]) {
		j++
	}
	if j < n && src[j] == ':' {
		return l.token(tLabel, start, j+1)
	}
	return l.bad(start, "unexpected '.'")
}

// bad returns a tBad token at start, with msg as the reason, and stops
// lexing.
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
