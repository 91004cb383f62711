// Package atomicfile writes files so that no reader ever sees a partial one:
// the bytes go to a temporary file in the same directory, which is renamed
// into place only when complete. A failure leaves the old file (or none) and
// no temporary file behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
)

// Error is a failure of the file system while creating, writing or renaming
// the file called Name (not a failure of the fill function).
type Error struct {
	Name string
	Err  error // the underlying error, without the temporary file's name
}

func (e *Error) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

var seq atomic.Uint64

// Write creates (or replaces) the file called name with the bytes fill
// writes. The file gets mode 0666 less the umask, as os.Create gives. Errors
// of fill are returned as they are; file-system errors as *Error.
func Write(name string, fill func(io.Writer) error) (err error) {
	dir, base := filepath.Split(name)
	var f *os.File
	for {
		// Temporary names are unique per process and call, and hidden.
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp%d-%d", base, os.Getpid(), seq.Add(1)))
		f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, os.ErrExist) {
			break
		}
	}
	if err != nil {
		return &Error{name, underlying(err)}
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return &Error{name, underlying(err)}
	}
	if err = os.Rename(f.Name(), name); err != nil {
		return &Error{name, underlying(err)}
	}
	return nil
}

// underlying strips the *os.PathError / *os.LinkError wrapper, which names
// the temporary file rather than the one the caller asked for.
func underlying(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
