package llvmir

import (
	"bytes"
	"strings"
)

// FoldZeroGEPs returns src with every getelementptr constant expression
// whose indices are all zero replaced by its pointer operand, when that
// operand is an opaque pointer: LLVM 15 and later fold such an expression
// away as they read it (its result is its operand, same type, same address),
// so the IR they print never holds one. Instructions, typed-pointer
// expressions (their result type differs from the operand's) and comments
// are left as they are; no line is added or removed. It reports whether it
// changed anything.
func FoldZeroGEPs(src []byte) ([]byte, bool) {
	// One pass over src: only the lines where a getelementptr keyword is
	// followed by a parenthesis (an expression, not an instruction) are
	// looked at, and src is copied only from the first line that changes.
	var out []byte
	copied := 0 // src[:copied] is in out
	key := []byte("getelementptr")
	for at := 0; ; {
		i := bytes.Index(src[at:], key)
		if i < 0 {
			break
		}
		i += at
		at = i + len(key)
		if !mayBeExpression(src, at) {
			continue
		}
		start := bytes.LastIndexByte(src[:i], '\n') + 1
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i + 1
		}
		at = end // the line is done with, whatever it holds
		line := src[start:end]
		code := commentStart(line)
		folded, ok := foldLine(string(line[:code]))
		if !ok {
			continue
		}
		out = append(out, src[copied:start]...)
		out = append(out, folded...)
		out = append(out, line[code:]...)
		copied = end
	}
	if out == nil {
		return src, false
	}
	return append(out, src[copied:]...), true
}

// mayBeExpression reports whether the getelementptr keyword that ends at
// at opens a constant expression: its keywords (inbounds, nuw, …) are
// followed by a parenthesis. An instruction's are followed by a type.
func mayBeExpression(src []byte, at int) bool {
	for at < len(src) {
		switch c := src[at]; {
		case c == '(':
			return true
		case c == ' ' || c == '\t' || c >= 'a' && c <= 'z':
			at++
		default:
			return false
		}
	}
	return false
}

// commentStart returns where the line's comment starts (its length when it
// has none): the first ';' outside a quoted string.
func commentStart(line []byte) int {
	quoted := false
	for i, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			return i
		}
	}
	return len(line)
}

// foldLine folds the line's foldable expressions, innermost last: a folded
// expression's operand is scanned again from where the expression stood.
func foldLine(s string) (string, bool) {
	changed := false
	for from := 0; ; {
		i := strings.Index(s[from:], "getelementptr")
		if i < 0 {
			return s, changed
		}
		i += from
		from = i + len("getelementptr")
		if i > 0 && isWordByte(s[i-1]) || inString(s[:i]) {
			continue
		}
		operand, end, ok := zeroGEP(s, from)
		if !ok {
			continue
		}
		s = s[:i] + operand + s[end:]
		from = i
		changed = true
	}
}

// inString reports whether the end of prefix is inside a quoted string.
func inString(prefix string) bool { return strings.Count(prefix, `"`)%2 == 1 }

// zeroGEP reads a getelementptr constant expression's keywords and
// parenthesized operands from at; it returns the pointer operand's value
// and where the expression ends when every index is a zero integer and the
// pointer is opaque.
func zeroGEP(s string, at int) (string, int, bool) {
	for {
		rest := strings.TrimLeft(s[at:], " \t")
		at = len(s) - len(rest)
		word := ""
		for _, w := range [...]string{"inbounds", "nuw", "nusw"} {
			if strings.HasPrefix(rest, w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
				word = w
			}
		}
		if word == "" {
			break
		}
		at += len(word)
	}
	if at >= len(s) || s[at] != '(' {
		return "", 0, false
	}
	args, end, ok := splitArgs(s, at)
	if !ok || len(args) < 3 {
		return "", 0, false
	}
	ptr := strings.TrimSpace(args[1])
	var val string
	switch {
	case strings.HasPrefix(ptr, "ptr addrspace("):
		close := strings.IndexByte(ptr, ')')
		if close < 0 {
			return "", 0, false
		}
		val = ptr[close+1:]
	case strings.HasPrefix(ptr, "ptr "):
		val = ptr[len("ptr"):]
	default:
		return "", 0, false
	}
	val = strings.TrimSpace(val)
	if val == "" {
		return "", 0, false
	}
	for _, idx := range args[2:] {
		f := strings.Fields(idx)
		if len(f) != 2 || f[1] != "0" || len(f[0]) < 2 || f[0][0] != 'i' || strings.Trim(f[0][1:], "0123456789") != "" {
			return "", 0, false
		}
	}
	return val, end, true
}

// splitArgs splits the parenthesized list that opens at s[open] at its
// top-level commas; it returns the pieces and the index just past the
// closing parenthesis.
func splitArgs(s string, open int) ([]string, int, bool) {
	depth := 0
	quoted := false
	start := open + 1
	var args []string
	for i := open; i < len(s); i++ {
		c := s[i]
		if quoted {
			if c == '"' {
				quoted = false
			}
			continue
		}
		switch c {
		case '"':
			quoted = true
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
			if depth == 0 {
				if c != ')' {
					return nil, 0, false
				}
				return append(args, s[start:i]), i + 1, true
			}
		case ',':
			if depth == 1 {
				args = append(args, s[start:i])
				start = i + 1
			}
		}
	}
	return nil, 0, false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
