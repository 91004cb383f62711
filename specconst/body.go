package specconst

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// A function body is rewritten as LLVM would print it after the pass: the
// lowered calls are replaced by their new instructions, uses of a removed
// call's result by its replacement (RAUW), and unnamed values renumbered
// densely in order of definition, since LLVM numbers %0, %1, … by position:
// a new unnamed instruction shifts every later number, a removed one
// closes the gap. New unnamed values are written with placeholder names
// "%?<n>" (not valid IR, so they cannot clash) until numbering.

// placeholder returns the placeholder text of new unnamed value n.
func placeholder(n int) string { return "%?" + strconv.Itoa(n) }

// callEdit is one lowered call: its source span and the lines that
// replace it (none: the call just goes).
type callEdit struct {
	start, end int
	lines      []string
	// result is the name (without '%') the call defined, "" when none;
	// replacement is what its uses become (a value or a constant).
	result      string
	replacement string
}

// bodySpan returns the offsets (in text) of a function definition's
// opening and closing braces: the last top-level brace pair of the text
// (a prefix or prologue constant can hold braces before it).
func bodySpan(text []byte) (open, close int, ok bool) {
	depth := 0
	open, close = -1, -1
	start := -1
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case '"':
			i = skipString(text, i)
		case '{':
			if depth == 0 {
				start = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 && start >= 0 {
				open, close = start, i
			}
		}
	}
	return open, close, open >= 0 && depth == 0
}

// skipString returns the offset of the closing quote of the string whose
// opening quote is at i (LLVM strings have no escaped quotes: \22).
func skipString[T string | []byte](text T, i int) int {
	for j := i + 1; j < len(text); j++ {
		if text[j] == '"' {
			return j
		}
	}
	return len(text) - 1
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '$' || c == '.' || c == '-' || c == '_' || c == '\\'
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// localToken is one %-name (or numbered label definition) of a body.
type localToken struct {
	start, end int    // the token, '%' (or the label's first digit) included
	name       string // without '%': "x", "5", "?3" (placeholder), `"a b"` kept quoted
	def        bool   // defines the value ("%x =") or the label ("5:")
	label      bool   // a label definition "N:" (end excludes the ':')
}

// numbered reports whether the token names an unnamed value (or is a
// placeholder for one).
func (t *localToken) numbered() bool {
	return isDigits(t.name) || strings.HasPrefix(t.name, "?")
}

// scanLocals lists the %-tokens and numbered label definitions of body
// text, skipping comments, strings and global, metadata and attribute
// references.
func scanLocals(text string) []localToken {
	var out []localToken
	lineStart := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			lineStart = true
			continue
		case c == '"':
			i = skipString(text, i)
		case c == '@' || c == '!' || c == '#' || c == '$':
			j := i + 1
			if j < len(text) && text[j] == '"' {
				j = skipString(text, j) + 1
			} else {
				for j < len(text) && isIdentByte(text[j]) {
					j++
				}
			}
			i = j - 1
		case c == '%':
			j := i + 1
			switch {
			case j < len(text) && text[j] == '"':
				j = skipString(text, j) + 1
			case j < len(text) && text[j] == '?':
				j++
				for j < len(text) && text[j] >= '0' && text[j] <= '9' {
					j++
				}
			default:
				for j < len(text) && isIdentByte(text[j]) {
					j++
				}
			}
			t := localToken{start: i, end: j, name: text[i+1 : j]}
			k := j
			for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			t.def = k < len(text) && text[k] == '=' && (k+1 >= len(text) || text[k+1] != '=')
			out = append(out, t)
			i = j - 1
		case c >= '0' && c <= '9' && lineStart:
			j := i
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			if j < len(text) && text[j] == ':' {
				out = append(out, localToken{start: i, end: j, name: text[i:j], def: true, label: true})
			}
			i = j - 1
		default:
			j := i
			for j < len(text) && isIdentByte(text[j]) {
				j++
			}
			if j > i {
				i = j - 1
			}
		}
		lineStart = false
	}
	return out
}

// entryUnnamed reports whether the body text's first block has no label
// (then it takes an unnamed value number).
func entryUnnamed(inner string) bool {
	i := 0
	for i < len(inner) {
		switch c := inner[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == ';':
			for i < len(inner) && inner[i] != '\n' {
				i++
			}
		default:
			j := i
			if inner[j] == '"' {
				j = skipString(inner, j) + 1
			} else {
				for j < len(inner) && isIdentByte(inner[j]) {
					j++
				}
			}
			return !(j < len(inner) && inner[j] == ':')
		}
	}
	return true
}

// rewriteBody applies the call edits to function e and renumbers its
// unnamed values; it returns the new text between the body's braces and
// where, in the module source, that text goes.
func rewriteBody(m *llvmir.Module, e *llvmir.Entity, edits []callEdit) (inner string, start, end int, err error) {
	open, close, ok := bodySpan(e.Text)
	if !ok {
		return "", 0, 0, fmt.Errorf("@%s: cannot find the function body", e.Name)
	}
	start, end = e.Off+open+1, e.Off+close
	src := m.Src

	// Compose: the body with every lowered call replaced.
	var b strings.Builder
	pos := start
	firstEdit := -1
	for _, ed := range edits {
		ls := ed.start
		for ls > 0 && src[ls-1] != '\n' {
			ls--
		}
		indent := "  "
		if onlySpace(src[ls:ed.start]) {
			indent = string(src[ls:ed.start])
		}
		from, to := ed.start, ed.end
		if len(ed.lines) == 0 {
			// The instruction just goes: with its line when it has the
			// line to itself.
			le := to
			for le < end && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
				le++
			}
			if onlySpace(src[ls:from]) && le < end && src[le] == '\n' && ls >= pos {
				from, to = ls, le+1
			}
		}
		b.Write(src[pos:from])
		if firstEdit < 0 {
			firstEdit = b.Len()
		}
		b.WriteString(strings.Join(ed.lines, "\n"+indent))
		pos = to
	}
	b.Write(src[pos:end])
	composed := b.String()

	rauw := map[string]string{}
	removed := map[string]bool{}
	for _, ed := range edits {
		if ed.result != "" {
			rauw[ed.result] = ed.replacement
			removed[ed.result] = isDigits(ed.result)
		}
	}

	// Number the definitions in order.
	next := 0
	for _, p := range e.Func.Params {
		if p.Name == "" || isDigits(p.Name) {
			next++
		}
	}
	if entryUnnamed(composed) {
		next++
	}
	toks := scanLocals(composed)
	number := map[string]int{}
	// The input's own numbers must run in sequence (as LLVM requires), so
	// that the new numbers follow from the old ones.
	expect := next
	for _, t := range toks {
		if !t.def || !t.numbered() {
			continue
		}
		if _, dup := number[t.name]; dup {
			return "", 0, 0, fmt.Errorf("@%s: value %%%s is defined twice", e.Name, t.name)
		}
		if isDigits(t.name) {
			for removed[strconv.Itoa(expect)] {
				expect++ // defined by a lowered call, gone
			}
			if t.name != strconv.Itoa(expect) {
				off := t.start
				if off >= firstEdit {
					off = firstEdit
				}
				line, col := m.Position(start + off)
				return "", 0, 0, &llvmir.Error{File: m.File, Line: line, Col: col,
					Msg: fmt.Sprintf("unnamed value %%%s of @%s is out of sequence (expected %%%d); cannot renumber", t.name, e.Name, expect)}
			}
			expect++
		}
		number[t.name] = next
		next++
	}
	resolve := func(name string) (string, bool) {
		if n, ok := number[name]; ok {
			return strconv.Itoa(n), true
		}
		return "", false
	}

	// Rewrite references and definitions.
	var out strings.Builder
	out.Grow(len(composed) + 64)
	last := 0
	for _, t := range toks {
		var repl string
		switch {
		case t.label:
			n, _ := resolve(t.name)
			repl = n
		case !t.def && rauw[t.name] != "":
			repl = renumberText(rauw[t.name], number)
		case t.numbered():
			n, ok := resolve(t.name)
			if !ok {
				if strings.HasPrefix(t.name, "?") {
					return "", 0, 0, fmt.Errorf("@%s: internal error: placeholder %%%s has no definition", e.Name, t.name)
				}
				continue // a use of an undefined number: leave it for the verifier
			}
			repl = "%" + n
		default:
			continue
		}
		out.WriteString(composed[last:t.start])
		out.WriteString(repl)
		last = t.end
	}
	out.WriteString(composed[last:])
	return out.String(), start, end, nil
}

// renumberText resolves the placeholders and numbered names in a short
// replacement text.
func renumberText(s string, number map[string]int) string {
	toks := scanLocals(s)
	if len(toks) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, t := range toks {
		if n, ok := number[t.name]; ok && t.numbered() {
			b.WriteString(s[last:t.start])
			b.WriteString("%" + strconv.Itoa(n))
			last = t.end
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

func onlySpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// namer hands out local value names the way LLVM's symbol table does: the
// name itself when free, else the name followed by the next value of a
// counter shared by all names of the function.
type namer struct {
	e     *llvmir.Entity
	taken map[string]bool // the function's names, collected on first use
	last  int
}

func newNamer(e *llvmir.Entity) *namer { return &namer{e: e} }

// name returns a fresh name based on base.
func (n *namer) name(base string) string {
	if n.taken == nil {
		n.taken = map[string]bool{}
		for _, p := range n.e.Func.Params {
			if p.Name != "" {
				n.taken[p.Name] = true
			}
		}
		for _, t := range scanLocals(string(n.e.Text)) {
			if !t.numbered() {
				n.taken[t.name] = true
			}
		}
	}
	name := base
	for n.taken[name] {
		n.last++
		name = base + strconv.Itoa(n.last)
	}
	n.taken[name] = true
	return name
}
