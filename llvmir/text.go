package llvmir

import (
	"sort"
	"strconv"
	"unsafe"
)

// str returns b as a string sharing its memory (the source is never
// modified while a Module is in use).
func str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// unescape decodes LLVM's \xx escapes (and \\); it shares memory with b when
// there is nothing to decode.
func unescape(b []byte) string {
	hasEsc := false
	for _, c := range b {
		if c == '\\' {
			hasEsc = true
			break
		}
	}
	if !hasEsc {
		return str(b)
	}
	return string(unescapeBytes(b))
}

// unescapeBytes decodes LLVM's \xx escapes (and \\) into a new slice.
func unescapeBytes(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' {
			if i+1 < len(b) && b[i+1] == '\\' {
				out = append(out, '\\')
				i++
				continue
			}
			if i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
				out = append(out, hexVal(b[i+1])<<4|hexVal(b[i+2]))
				i += 2
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

const hexDigits = "0123456789ABCDEF"

// quoteString writes s as an LLVM quoted string: printable ASCII other than
// '"' and '\' verbatim, everything else as \XX.
func quoteString(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = appendEscaped(b, s)
	return string(append(b, '"'))
}

func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			b = append(b, c)
		} else {
			b = append(b, '\\', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return b
}

// QuoteName returns name as LLVM writes it after a sigil (@, %, $):
// bare when it is a valid unquoted name ("f", "llvm.dbg.value"), quoted
// with escapes otherwise ("\"f::g\"").
func QuoteName(name string) string { return quoteNameIfNeeded(name) }

// quoteNameIfNeeded returns name as it follows a sigil: bare when it is a
// valid unquoted LLVM name, quoted otherwise.
func quoteNameIfNeeded(name string) string {
	if name == "" {
		return `""`
	}
	ok := !isDigit(name[0])
	for i := 0; i < len(name) && ok; i++ {
		ok = isIdent(name[i])
	}
	if ok {
		return name
	}
	return quoteString(name)
}

func itoa(n int) string { return strconv.Itoa(n) }

// position converts a byte offset to a 1-based line and column, building
// the line index on first use.
func position(src []byte, lines *[]int, off int) (int, int) {
	if *lines == nil {
		ls := []int{0}
		for i, c := range src {
			if c == '\n' {
				ls = append(ls, i+1)
			}
		}
		*lines = ls
	}
	ls := *lines
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	i := sort.SearchInts(ls, off+1) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - ls[i] + 1
}
