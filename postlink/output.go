package postlink

import (
	"errors"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/llvmir"
)

// outputs writes the files of one run. Every file is written under a
// temporary name beside its final one and renamed into place
// (internal/atomicfile), so no file is ever half-written; if the run fails,
// the files it already produced are removed again, so a failed run leaves
// nothing behind.
type outputs struct {
	stdout io.Writer
	dir    string // IO.Dir
	// assemble, when set, turns module text into a bitcode file.
	assemble func(text []byte, path string) error
	// bufs are the buffers modules are rendered into, kept for the whole
	// run (a sync.Pool would drop them at every collection, and each new
	// buffer's pages would be faulted in again while it is written).
	bufs    chan *[]byte
	mu      sync.Mutex
	written []string
}

func itoa(n int) string { return strconv.Itoa(n) }

// buffer returns a buffer to render a module into: each file is rendered
// in memory and written with one system call. Give it back with
// putBuffer.
func (o *outputs) buffer() *[]byte {
	select {
	case b := <-o.bufs:
		return b
	default:
		return new([]byte)
	}
}

// putBuffer keeps b for the next module, unless enough are kept.
func (o *outputs) putBuffer(b *[]byte) {
	select {
	case o.bufs <- b:
	default:
	}
}

// writeModule writes the module plan renders, without the input's comment
// lines (LLVM's printer writes none), to path ("-" is stdout): as text, or
// as bitcode when the run writes bitcode.
func (o *outputs) writeModule(path string, plan *llvmir.Plan) error {
	bp := o.buffer()
	defer o.putBuffer(bp)
	text, err := plan.Append((*bp)[:0], llvmir.WriteOptions{StripComments: true})
	*bp = text[:0]
	if err != nil {
		return err
	}
	if o.assemble == nil {
		return o.writeBytes(path, text)
	}
	if err := o.assemble(text, path); err != nil {
		return errorf("error writing the file '%s': %v", path, err)
	}
	o.mu.Lock()
	o.written = append(o.written, path)
	o.mu.Unlock()
	return nil
}

// writeBytes creates path with data, through internal/atomicfile: under a
// temporary name beside it, then renamed into place.
func (o *outputs) writeBytes(path string, data []byte) error {
	if path == "-" {
		_, err := o.stdout.Write(data)
		return err
	}
	err := atomicfile.Write(basedir.Resolve(o.dir, path), func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		var fe *atomicfile.Error
		if errors.As(err, &fe) {
			err = fe.Err
		}
		return errorf("error writing the file '%s': %s", path, err)
	}
	o.mu.Lock()
	o.written = append(o.written, path)
	o.mu.Unlock()
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
