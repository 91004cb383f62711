package postlink

import (
	"bufio"
	"io"
	"os"
	"strconv"
)

// outputs writes the files of one run. Every file is written under a
// temporary name beside its final one and renamed into place, so no file
// is ever half-written; if the run fails, the files it already produced are
// removed again, so a failed run leaves nothing behind.
type outputs struct {
	stdout  io.Writer
	written []string
}

func itoa(n int) string { return strconv.Itoa(n) }

// write creates path with the bytes produced by fill ("-" is stdout).
func (o *outputs) write(path string, fill func(io.Writer) error) error {
	if path == "-" {
		return fill(o.stdout)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return errorf("error opening the file '%s': %s", path, errText(err))
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		if _, ok := err.(*Error); ok {
			return err
		}
		return errorf("error writing the file '%s': %s", path, errText(err))
	}
	o.written = append(o.written, path)
	return nil
}

// writeBytes creates path with data.
func (o *outputs) writeBytes(path string, data []byte) error {
	return o.write(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// discard removes everything written so far.
func (o *outputs) discard() {
	for _, p := range o.written {
		os.Remove(p)
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
