package llvmir

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A BodyEdit rewrites one function body the way LLVM prints a function
// after a pass has changed it: instructions replaced or removed, uses of a
// removed value replaced by another value (RAUW), and the unnamed values
// (%0, %1, …: unnamed arguments, blocks and instructions) renumbered
// densely in order of definition, since LLVM numbers them by position: a
// new unnamed instruction shifts every later number, a removed one closes
// the gap. This is the one place where local numbers change; edits through
// Plan.ReplaceInstr alone keep them.
//
// New unnamed values are written with the placeholders NewValue returns
// (not valid IR, so they cannot clash) and get their numbers when the body
// is rendered; new named values take names from NewName, made unique as
// LLVM's symbol table does. A BodyEdit only reads its module: edits of one
// module may be built concurrently.
type BodyEdit struct {
	m      *Module
	e      *Entity
	edits  []bodyInstrEdit
	nextPH int
	taken  map[string]bool // the function's local names, collected on first use
	last   int             // the name counter shared by all names of the function
}

type bodyInstrEdit struct {
	start, end int
	lines      []string
	// result is the local name (without '%') the instruction defined, ""
	// when none; with is what its uses become.
	result, with string
}

// EditBody starts an edit of the body of function definition e.
func (m *Module) EditBody(e *Entity) *BodyEdit { return &BodyEdit{m: m, e: e} }

// Entity returns the function being edited.
func (b *BodyEdit) Entity() *Entity { return b.e }

// Replace replaces the instruction at [start, end) of the module source
// (Call.Start, Call.End) with lines, each one instruction without
// indentation or newline; the first takes the instruction's place, the
// others follow on lines of their own with its indentation. With no lines
// the instruction goes, with its line when it has the line to itself.
// When the instruction defined a value (result, without '%'), every use of
// it becomes with (a value or constant, without type); pass "" for both
// when it defined none.
func (b *BodyEdit) Replace(start, end int, result, with string, lines ...string) {
	b.edits = append(b.edits, bodyInstrEdit{start: start, end: end, lines: lines, result: result, with: with})
}

// NewValue returns the placeholder of a new unnamed value, to be defined
// by one of the lines of a Replace.
func (b *BodyEdit) NewValue() string {
	b.nextPH++
	return placeholder(b.nextPH)
}

// placeholder returns the placeholder text of new unnamed value n.
func placeholder(n int) string { return "%?" + strconv.Itoa(n) }

// NewName returns a fresh local name (without '%') based on base: base
// itself when the function does not use it yet, else base followed by the
// next value of a counter shared by all names of the function (LLVM's
// ValueSymbolTable::makeUniqueName).
func (b *BodyEdit) NewName(base string) string {
	if b.taken == nil {
		b.taken = map[string]bool{}
		for _, p := range b.e.Func.Params {
			if p.Name != "" {
				b.taken[p.Name] = true
			}
		}
		for _, t := range scanLocals(string(b.e.Text)) {
			if !t.numbered() {
				b.taken[t.name] = true
			}
		}
	}
	name := base
	for b.taken[name] {
		b.last++
		name = base + strconv.Itoa(b.last)
	}
	b.taken[name] = true
	return name
}

// SetBody records the edited body of b's function in the plan, rendered
// with its unnamed values renumbered, and returns the names of the global
// values the rewritten function references (read back with the parser).
// The input's own numbers must run in sequence, as LLVM requires; when
// they do not, the error names the first out of place.
func (p *Plan) SetBody(b *BodyEdit) (globals []string, err error) {
	inner, start, end, err := b.render()
	if err != nil {
		return nil, err
	}
	p.ReplaceInstr(b.e, start, end, inner)
	src, e := b.m.Src, b.e
	text := make([]byte, 0, len(e.Text)+len(inner)-(end-start))
	text = append(text, src[e.Off:start]...)
	text = append(text, inner...)
	text = append(text, src[end:e.Off+len(e.Text)]...)
	o := &outEntity{}
	if err := p.reparse(o, text); err != nil {
		return nil, fmt.Errorf("@%s after edits: %v", e.Name, err)
	}
	for _, g := range o.rp.globals {
		globals = append(globals, decodeName(g))
	}
	return globals, nil
}

// render applies the edits and renumbers; it returns the new text between
// the body's braces and where, in the module source, that text goes.
func (b *BodyEdit) render() (inner string, start, end int, err error) {
	e := b.e
	if e.Func == nil || e.Func.body.End == 0 {
		return "", 0, 0, fmt.Errorf("@%s: not a function definition", e.Name)
	}
	start, end = int(e.Func.body.Start)+1, int(e.Func.body.End)-1
	edits := slices.Clone(b.edits)
	slices.SortStableFunc(edits, func(x, y bodyInstrEdit) int { return x.start - y.start })
	c, err := b.compose(edits, start, end)
	if err != nil {
		return "", 0, 0, err
	}
	toks := scanLocals(c.text)
	number, err := b.number(c, toks, edits)
	if err != nil {
		return "", 0, 0, err
	}
	rauw := map[string]string{}
	for _, ed := range edits {
		if ed.result != "" {
			rauw[ed.result] = ed.with
		}
	}
	inner, err = b.rewrite(c.text, toks, number, rauw)
	return inner, start, end, err
}

// composed is a body with its edited instructions replaced, before
// renumbering.
type composed struct {
	text string
	// segs map the text back to the source: each copied piece starts at
	// offset at of the text and src of the source; inserted text (n 0)
	// maps to the start of the instruction it replaces.
	segs []segment
}

type segment struct{ at, src, n int }

// srcOffset returns the source offset of offset off of the composed text.
func (c *composed) srcOffset(off int) int {
	i := sort.Search(len(c.segs), func(i int) bool { return c.segs[i].at > off }) - 1
	sg := c.segs[max(i, 0)]
	if off-sg.at < sg.n {
		return sg.src + off - sg.at
	}
	return sg.src
}

// compose writes the body text [start, end) of the source with the edits
// (sorted) applied: each instruction replaced by its lines, indented as
// it was, or removed, with its line when it has the line to itself.
func (b *BodyEdit) compose(edits []bodyInstrEdit, start, end int) (*composed, error) {
	src := b.m.Src
	var sb strings.Builder
	c := &composed{}
	copySrc := func(from, to int) {
		c.segs = append(c.segs, segment{sb.Len(), from, to - from})
		sb.Write(src[from:to])
	}
	pos := start
	for _, ed := range edits {
		if ed.start < pos || ed.end > end || ed.start > ed.end {
			return nil, fmt.Errorf("@%s: instruction range %d-%d is outside the body or overlaps another", b.e.Name, ed.start, ed.end)
		}
		ls := ed.start
		for ls > 0 && src[ls-1] != '\n' {
			ls--
		}
		indent := "  "
		if allSpace(src[ls:ed.start]) {
			indent = string(src[ls:ed.start])
		}
		from, to := ed.start, ed.end
		if len(ed.lines) == 0 {
			le := to
			for le < end && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
				le++
			}
			if allSpace(src[ls:from]) && le < end && src[le] == '\n' && ls >= pos {
				from, to = ls, le+1
			}
		}
		copySrc(pos, from)
		c.segs = append(c.segs, segment{sb.Len(), ed.start, 0})
		sb.WriteString(strings.Join(ed.lines, "\n"+indent))
		pos = to
	}
	copySrc(pos, end)
	c.text = sb.String()
	return c, nil
}

// number gives the unnamed values of the composed body (its tokens toks)
// their new numbers, in order of definition after the unnamed parameters
// and an unlabelled entry block. The input's own numbers must run in
// sequence (those of removed instructions aside), so that the new numbers
// follow from the old ones.
func (b *BodyEdit) number(c *composed, toks []localToken, edits []bodyInstrEdit) (map[string]int, error) {
	e := b.e
	removed := map[string]bool{}
	for _, ed := range edits {
		if isDigits(ed.result) {
			removed[ed.result] = true
		}
	}
	next := 0
	for _, p := range e.Func.Params {
		if p.Name == "" || isDigits(p.Name) {
			next++
		}
	}
	if entryUnnamed(c.text) {
		next++
	}
	number := map[string]int{}
	expect := next
	for _, t := range toks {
		if !t.def || !t.numbered() {
			continue
		}
		if _, dup := number[t.name]; dup {
			return nil, fmt.Errorf("@%s: value %%%s is defined twice", e.Name, t.name)
		}
		if isDigits(t.name) {
			for removed[strconv.Itoa(expect)] {
				expect++ // defined by a removed instruction
			}
			if t.name != strconv.Itoa(expect) {
				line, col := b.m.Position(c.srcOffset(t.start))
				return nil, &Error{File: b.m.File, Line: line, Col: col,
					Msg: fmt.Sprintf("unnamed value %%%s of @%s is out of sequence (expected %%%d); cannot renumber", t.name, e.Name, expect)}
			}
			expect++
		}
		number[t.name] = next
		next++
	}
	return number, nil
}

// rewrite writes text with its numbered definitions and uses renumbered
// and the uses of removed values replaced (rauw: name → replacement).
func (b *BodyEdit) rewrite(text string, toks []localToken, number map[string]int, rauw map[string]string) (string, error) {
	var out strings.Builder
	out.Grow(len(text) + 64)
	last := 0
	for _, t := range toks {
		var repl string
		switch {
		case t.label:
			repl = strconv.Itoa(number[t.name])
		case !t.def && rauw[t.name] != "":
			repl = renumberText(rauw[t.name], number)
		case t.numbered():
			n, ok := number[t.name]
			if !ok {
				if strings.HasPrefix(t.name, "?") {
					return "", fmt.Errorf("@%s: internal error: placeholder %%%s has no definition", b.e.Name, t.name)
				}
				continue // a use of an undefined number: left for the verifier
			}
			repl = "%" + strconv.Itoa(n)
		default:
			continue
		}
		out.WriteString(text[last:t.start])
		out.WriteString(repl)
		last = t.end
	}
	out.WriteString(text[last:])
	return out.String(), nil
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

// isNameByte reports whether c can continue an unquoted name (escapes
// included).
func isNameByte(c byte) bool { return isIdent(c) || c == '\\' }

// skipQuoted returns the offset of the closing quote of the string whose
// opening quote is at i (LLVM strings have no escaped quotes: \22).
func skipQuoted(text string, i int) int {
	if j := strings.IndexByte(text[i+1:], '"'); j >= 0 {
		return i + 1 + j
	}
	return len(text) - 1
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
			i = skipQuoted(text, i)
		case c == '@' || c == '!' || c == '#' || c == '$':
			j := i + 1
			if j < len(text) && text[j] == '"' {
				j = skipQuoted(text, j) + 1
			} else {
				for j < len(text) && isNameByte(text[j]) {
					j++
				}
			}
			i = j - 1
		case c == '%':
			j := i + 1
			switch {
			case j < len(text) && text[j] == '"':
				j = skipQuoted(text, j) + 1
			case j < len(text) && text[j] == '?':
				j++
				for j < len(text) && isDigit(text[j]) {
					j++
				}
			default:
				for j < len(text) && isNameByte(text[j]) {
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
		case isDigit(c) && lineStart:
			j := i
			for j < len(text) && isDigit(text[j]) {
				j++
			}
			if j < len(text) && text[j] == ':' {
				out = append(out, localToken{start: i, end: j, name: text[i:j], def: true, label: true})
			}
			i = j - 1
		default:
			j := i
			for j < len(text) && isNameByte(text[j]) {
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
				j = skipQuoted(inner, j) + 1
			} else {
				for j < len(inner) && isNameByte(inner[j]) {
					j++
				}
			}
			return !(j < len(inner) && inner[j] == ':')
		}
	}
	return true
}
