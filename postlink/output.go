package postlink

import (
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/llvmir"
)

// outputs writes the files of one run. If the run fails, the files it
// already produced are removed again, so a failed run leaves nothing
// behind.
//
// A split's tables are its commit point: a table is written last, under a
// temporary name renamed into place (internal/atomicfile), and the tables
// of an earlier run are removed before the first module file is written
// (tableFirst). So a table that exists names only complete files, and the
// module, symbol and property files themselves can be written straight
// under their final names (direct), one system call each to create,
// write and close, as LLVM's tools write theirs: a split writes tens of
// thousands of them, and a rename each was a tenth of its time. Files
// written outside a split (-ir-output-only) go through internal/atomicfile.
type outputs struct {
	stdout io.Writer
	dir    string // IO.Dir
	direct bool   // module files are written in place (see above)
	// assemble, when set, turns module text into bitcode.
	assemble func(text []byte) ([]byte, error)
	// bufs are the buffers modules are rendered into, kept for the whole
	// run (a sync.Pool would drop them at every collection, and each new
	// buffer's pages would be faulted in again while it is written).
	bufs    chan *moduleBuf
	mu      sync.Mutex
	written []string
}

func itoa(n int) string { return strconv.Itoa(n) }

// moduleBuf is where one module is rendered: gathered (mostly pieces of
// the input) when it is written as text in place, else as one buffer.
type moduleBuf struct {
	g      llvmir.Gathered
	pieces [][]byte
	text   []byte
}

// buffer returns a buffer to render a module into: each file is rendered
// in memory and written with one system call. Give it back with
// putBuffer.
func (o *outputs) buffer() *moduleBuf {
	select {
	case b := <-o.bufs:
		return b
	default:
		return new(moduleBuf)
	}
}

// putBuffer keeps b for the next module, unless enough are kept.
func (o *outputs) putBuffer(b *moduleBuf) {
	b.g.Reset()
	clear(b.pieces)
	b.pieces = b.pieces[:0]
	select {
	case o.bufs <- b:
	default:
	}
}

// writeModule writes the module plan renders, without the input's comment
// lines (LLVM's printer writes none), to path ("-" is stdout): as text, or
// as bitcode when the run writes bitcode. Text is gathered: most of a
// module is the input's own text (function bodies), written from the
// input, without being copied, by one writev(2).
func (o *outputs) writeModule(path string, plan *llvmir.Plan) error {
	b := o.buffer()
	defer o.putBuffer(b)
	// Written as LLVM's printer writes a module: no comment lines, the
	// global variables before the functions, the attribute groups after
	// them.
	opts := llvmir.WriteOptions{StripComments: true, GlobalsFirst: true, GroupsLast: true}
	if o.assemble == nil {
		if err := plan.Gather(&b.g, opts); err != nil {
			return err
		}
		b.pieces = b.g.Pieces(b.pieces)
		return o.writeBytes(path, b.pieces...)
	}
	text, err := plan.Append(b.text[:0], opts)
	b.text = text[:0]
	if err != nil {
		return err
	}
	bc, err := o.assemble(text)
	if err != nil {
		return errorf("error writing the file '%s': %v", path, err)
	}
	return o.writeBytes(path, bc)
}

// writeBytes creates path with data, the concatenation of its pieces: in
// place when the run writes its files directly, else through
// internal/atomicfile.
func (o *outputs) writeBytes(path string, data ...[]byte) error {
	if path == "-" || !o.direct {
		return o.writeAtomic(path, data...)
	}
	if err := create(basedir.Resolve(o.dir, path), data...); err != nil {
		return errorf("error writing the file '%s': %s", path, err)
	}
	o.wrote(path)
	return nil
}

// writeAtomic creates path with data, the concatenation of its pieces,
// under a temporary name beside it, renamed into place when complete
// (internal/atomicfile).
func (o *outputs) writeAtomic(path string, data ...[]byte) error {
	write := func(w io.Writer) error {
		for _, p := range data {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	}
	if path == "-" {
		return write(o.stdout)
	}
	err := atomicfile.Write(basedir.Resolve(o.dir, path), write)
	if err != nil {
		var fe *atomicfile.Error
		if errors.As(err, &fe) {
			err = fe.Err
		}
		return errorf("error writing the file '%s': %s", path, err)
	}
	o.wrote(path)
	return nil
}

// wrote records path as written by this run.
func (o *outputs) wrote(path string) {
	o.mu.Lock()
	o.written = append(o.written, path)
	o.mu.Unlock()
}

// tableFirst removes the tables an earlier run left at the outputs'
// paths, before any module file is written: from here until the new
// tables are written, no table names a file that is being replaced.
func (o *outputs) tableFirst(tables []*Table) error {
	for _, t := range tables {
		path := t.Output.File
		if path == "-" {
			continue
		}
		// unlink(2), not os.Remove, which would remove an empty directory.
		if err := syscall.Unlink(basedir.Resolve(o.dir, path)); err != nil && err != syscall.ENOENT {
			return errorf("error writing the file '%s': %s", path, err)
		}
	}
	o.direct = true
	return nil
}

// discard removes everything written so far.
func (o *outputs) discard() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range o.written {
		os.Remove(basedir.Resolve(o.dir, p))
	}
	o.written = nil
}

// errText is the operating system's text of an error, without Go's
// "op path:" decoration.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err.Error()
	}
	return err.Error()
}
