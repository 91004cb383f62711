package postlink

import (
	"bytes"
	"io"
)

// commentFilter drops the comment lines (first non-blank character ';') of
// the IR written through it. sycbuild keeps every entity's source text,
// and the input's comments travel with it; LLVM's printer writes none, and
// a kept comment that mentions another function (as test expectations
// do) would be read as part of the module. A ';' cannot start a line
// inside an IR string, which never spans lines.
type commentFilter struct {
	w       io.Writer
	midLine bool   // inside a line that is being kept
	dropped bool   // inside a comment line
	indent  []byte // leading blanks of a line not yet decided
}

func (f *commentFilter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		switch {
		case f.dropped:
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				return n, nil
			}
			p = p[i+1:]
			f.dropped = false
		case f.midLine:
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				_, err := f.w.Write(p)
				return n, err
			}
			if _, err := f.w.Write(p[:i+1]); err != nil {
				return n, err
			}
			p = p[i+1:]
			f.midLine = false
		default: // at the start of a line, possibly after some blanks
			c := p[0]
			switch c {
			case ' ', '\t':
				f.indent = append(f.indent, c)
				p = p[1:]
			case ';':
				f.indent = f.indent[:0]
				f.dropped = true
			default:
				if len(f.indent) > 0 {
					if _, err := f.w.Write(f.indent); err != nil {
						return n, err
					}
					f.indent = f.indent[:0]
				}
				f.midLine = true
			}
		}
	}
	return n, nil
}
