//go:build !unix

package atomicfile

import (
	"os"
	"path/filepath"
)

// processGone is Unix's; here no process is known to be gone, and
// RemoveStale removes nothing.
func processGone(int) bool { return false }

// createTemp creates a temporary file for name (see TempName).
func createTemp(name string) (*os.File, error) {
	for {
		f, err := os.OpenFile(TempName(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !os.IsExist(err) {
			return f, underlying(err)
		}
	}
}

func rename(from, to string) error { return underlying(os.Rename(from, to)) }

// Sync makes the files called names durable, each synced in turn.
func Sync(names ...string) error {
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return &Error{n, underlying(err)}
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return &Error{filepath.Clean(n), underlying(err)}
		}
	}
	return nil
}

// Special says whether name is something other than a regular file or a
// directory: a device, a FIFO, a socket or a symlink, which a write goes
// into rather than replaces.
func Special(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}
