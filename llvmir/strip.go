package llvmir

import "bytes"

// Comment lines are the lines whose first character other than a blank
// (' ', '\t') is ';'. A plan written with WriteOptions.StripComments leaves
// them out: sycbuild keeps every entity's source text, and the input's
// comments would travel with it, while LLVM's printer writes none, and a
// kept comment that mentions another function (as test expectations do)
// would be read as part of the module. A ';' cannot start a line inside an
// IR string, which never spans lines. Comments that follow IR on a line
// stay.
//
// Whether an entity's Lead and Text hold comment lines is found once per
// module (commentLines); writing then copies the text of an entity without
// any as it is, and only the few texts with comment lines (typically the
// "; Function Attrs:" lines before functions) go through the line filter.

// What commentLines records per entity.
const (
	leadComments uint8 = 1 << iota // Lead holds a comment line
	textComments                   // Text holds a comment line
	textEndsLine                   // Text ends with a newline
	leadOneLine                    // Lead, filtered from a line start, is "\n" and holds no blanks back
)

// commentLines returns, by entity index, which of each entity's Lead and
// Text hold comment lines, whether its Text ends its line and whether its
// Lead is one line once filtered; it is computed on first use (safe from several
// goroutines) in one pass over the source.
func (m *Module) commentLines() []uint8 {
	m.commentsOnce.Do(func() {
		flags := make([]uint8, len(m.Entities))
		var lead []byte // a lead through the filter, in one buffer for all
		for i, e := range m.Entities {
			if hasCommentLine(e.Lead) {
				flags[i] |= leadComments
			}
			if len(e.Lead) > 0 {
				var f stripper
				if lead = f.filter(lead[:0], e.Lead); string(lead) == "\n" && f.state == lineStart && len(f.pending) == 0 {
					flags[i] |= leadOneLine
				}
			}
			if hasCommentLine(e.Text) {
				flags[i] |= textComments
			}
			if n := len(e.Text); n > 0 && e.Text[n-1] == '\n' {
				flags[i] |= textEndsLine
			}
		}
		m.comments = flags
	})
	return m.comments
}

// hasCommentLine reports whether b, read from the start of a line, holds a
// comment line.
func hasCommentLine(b []byte) bool {
	if bytes.IndexByte(b, ';') < 0 {
		return false
	}
	for len(b) > 0 {
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i < len(b) && b[i] == ';' {
			return true
		}
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return false
		}
		b = b[i+j+1:]
	}
	return false
}

// The states of the comment filter.
const (
	lineStart = iota // at the start of a line, blanks so far (held in pending)
	inLine           // in a kept line
	inComment        // in a comment line, which is left out
)

// stripper removes comment lines from text appended through it in chunks;
// a line may span chunks.
type stripper struct {
	state int
	// pending holds the blanks that began the current line in an earlier
	// chunk, until it is known whether the line is kept.
	pending []byte
}

// filter appends p to dst without its comment lines, line by line.
func (f *stripper) filter(dst, p []byte) []byte {
	keep := 0  // p[keep:] is not written yet
	start := 0 // where the current line begins in p (state lineStart)
	for i := 0; i < len(p); {
		switch f.state {
		case inComment:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return dst
			}
			i += j + 1
			keep, start, f.state = i, i, lineStart
		case inLine:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return append(dst, p[keep:]...)
			}
			i += j + 1
			start, f.state = i, lineStart
		default:
			switch p[i] {
			case ' ', '\t':
				i++
			case ';':
				dst = append(dst, p[keep:start]...)
				f.pending = f.pending[:0]
				f.state = inComment
			default:
				dst = append(dst, f.pending...)
				f.pending = f.pending[:0]
				f.state = inLine
			}
		}
	}
	if f.state == lineStart {
		f.pending = append(f.pending, p[start:]...)
		return append(dst, p[keep:start]...)
	}
	return append(dst, p[keep:]...)
}

// clean is how p, known to hold no comment line, goes through the filter
// without being read line by line: it appends to dst what filter would
// append before p (blanks held from an earlier chunk) and returns the part
// of p filter would append (p without the blanks that begin a line at its
// end, which are held). suffix says p may begin in the middle of a source
// line (the unedited end of an entity): its first line is then known to be
// no comment line only when it continues a kept line. endsLine says p ends
// with a newline, which clean then need not look for. When clean cannot
// tell what filter would do without reading p line by line, it changes
// nothing and reports false.
func (f *stripper) clean(dst, p []byte, suffix, endsLine bool) (out, body []byte, ok bool) {
	if len(p) == 0 {
		return dst, nil, true
	}
	switch f.state {
	case inComment:
		return dst, nil, false
	case lineStart:
		// A piece that ends its line is not only blanks.
		if suffix || !endsLine && onlyBlanks(p) {
			return dst, nil, false
		}
		dst = append(dst, f.pending...)
		f.pending = f.pending[:0]
	}
	if endsLine {
		f.state = lineStart
		f.pending = f.pending[:0]
		return dst, p, true
	}
	nl := bytes.LastIndexByte(p, '\n')
	if nl >= 0 && onlyBlanks(p[nl+1:]) {
		f.state = lineStart
		f.pending = append(f.pending[:0], p[nl+1:]...)
		p = p[:nl+1]
	} else {
		f.state = inLine
	}
	return dst, p, true
}

// onlyBlanks reports whether b holds nothing but ' ' and '\t'.
func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
