package postlink

import (
	"bufio"
	"bytes"
	"io"
	"sync"

	"github.com/sycbuild/sycbuild/llvmir"
)

// planWriters recycles the buffered writers plans are written through.
// llvmir buffers its output in a 256 KiB bufio.Writer, and bufio reuses a
// writer it is given when that is large enough: handing it a pooled one
// saves that allocation for every module.
var planWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 256<<10) }}

// writePlan writes plan to w without its comment lines.
func writePlan(w io.Writer, plan *llvmir.Plan) error {
	bw := planWriters.Get().(*bufio.Writer)
	defer planWriters.Put(bw)
	bw.Reset(&commentFilter{w: w})
	if err := plan.Write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// commentFilter drops the comment lines (first non-blank character ';') of
// the IR written through it. sycbuild keeps every entity's source text,
// and the input's comments travel with it; LLVM's printer writes none, and
// a kept comment that mentions another function (as test expectations
// do) would be read as part of the module. A ';' cannot start a line
// inside an IR string, which never spans lines. Kept text goes to the
// underlying writer in as few writes as possible.
type commentFilter struct {
	w     io.Writer
	state int // lineStart, inLine or inComment
	// pending holds the blanks that began the current line in an earlier
	// Write, until it is known whether the line is kept.
	pending []byte
}

const (
	lineStart = iota
	inLine
	inComment
)

func (f *commentFilter) Write(p []byte) (int, error) {
	keep := 0  // p[keep:] is not written yet
	start := 0 // where the current line begins in p (state lineStart)
	write := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		_, err := f.w.Write(b)
		return err
	}
	for i := 0; i < len(p); {
		switch f.state {
		case inComment:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return len(p), nil
			}
			i += j + 1
			keep, start, f.state = i, i, lineStart
		case inLine:
			j := bytes.IndexByte(p[i:], '\n')
			if j < 0 {
				return len(p), write(p[keep:])
			}
			i += j + 1
			start, f.state = i, lineStart
		default:
			switch p[i] {
			case ' ', '\t':
				i++
			case ';':
				if err := write(p[keep:start]); err != nil {
					return len(p), err
				}
				f.pending = f.pending[:0]
				f.state = inComment
			default:
				if len(f.pending) > 0 {
					if err := write(f.pending); err != nil {
						return len(p), err
					}
					f.pending = f.pending[:0]
				}
				f.state = inLine
			}
		}
	}
	if f.state == lineStart {
		f.pending = append(f.pending, p[start:]...)
		return len(p), write(p[keep:start])
	}
	return len(p), write(p[keep:])
}
