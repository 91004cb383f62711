// Package atomicfile writes files so that no reader ever sees a partial one:
// the bytes go to a temporary file in the same directory, which is renamed
// into place only when complete. A failure leaves the old file (or none) and
// no temporary file behind.
//
// Durability: a rename survives a killed process but not a crashed
// machine, which may lose the file's data, or the rename, or both (on
// ext4, a renamed file can come back empty). Write does not sync: one
// fsync per file costs milliseconds, and sycl-post-link writes thousands
// of files. Callers that must not say a file is written before it is on
// disk call Sync once for a whole set of files: sycbuild's build log
// records an action's outputs only after Sync returned for them, batching
// the outputs of every action that finished meanwhile (group commit). So
// the log never records a file a power loss can take back; a file that was
// written but not yet recorded is at worst missing, empty or old after a
// crash, and since it has no record the next build makes it again.
//
// Atomic replace is for regular files only: a character device (-o
// /dev/null), a FIFO or a symlink in the file's place is written into, as
// LLVM's tools do, never replaced by a regular file.
//
// Temporary names are unique per process and call, and hidden:
// ".<name>.tmp<pid>-<n>" beside the file. TempName makes one for files that
// other programs write; RemoveStale removes those that processes which no
// longer run left behind.
package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// TempName returns a temporary name for the file called name, in the same
// directory, that no other call and no other process uses.
func TempName(name string) string {
	dir, base := filepath.Split(name)
	return dir + "." + base + ".tmp" + pidText() + "-" + strconv.FormatUint(seq.Add(1), 10)
}

// pidText is the process id in decimal, asked of the system once (a
// split writes tens of thousands of files).
var pidText = sync.OnceValue(func() string { return strconv.Itoa(os.Getpid()) })

// tempOwner returns the process id in a temporary name made by TempName.
func tempOwner(base string) (int, bool) {
	if !strings.HasPrefix(base, ".") {
		return 0, false
	}
	i := strings.LastIndex(base, ".tmp")
	if i < 0 {
		return 0, false
	}
	pid, n, ok := strings.Cut(base[i+4:], "-")
	if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
		return 0, false
	}
	p, err := strconv.Atoi(pid)
	if err != nil || p <= 0 {
		return 0, false
	}
	return p, true
}

// RemoveStale removes the temporary files in dir whose process no longer
// runs: what a killed writer left. The files of running processes (this
// one, another build, a tool still finishing) are left alone. It returns
// how many it removed.
func RemoveStale(dir string) int {
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return 0
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	return RemoveStaleOf(dir, names)
}

// RemoveStaleOf is RemoveStale for a directory whose names the caller has
// read already.
func RemoveStaleOf(dir string, names []string) int {
	removed := 0
	for _, n := range names {
		pid, ok := tempOwner(n)
		if !ok || pid == os.Getpid() || !processGone(pid) {
			continue
		}
		if os.Remove(filepath.Join(dir, n)) == nil {
			removed++
		}
	}
	return removed
}

// Write creates (or replaces) the file called name with the bytes fill
// writes. The file gets mode 0666 less the umask, as os.Create gives. Errors
// of fill are returned as they are; file-system errors as *Error.
func Write(name string, fill func(io.Writer) error) (err error) {
	if Special(name) {
		return writeInto(name, fill)
	}
	f, err := createTemp(name)
	if err != nil {
		return &Error{name, err}
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
	if err = rename(f.Name(), name); err != nil {
		if fi, serr := os.Stat(name); serr == nil && fi.IsDir() {
			// rename(2) says EEXIST ("file exists") for a directory.
			return &Error{name, syscall.EISDIR}
		}
		return &Error{name, err}
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

// writeInto writes what fill writes into the special file name (through a
// symlink, into what it names).
func writeInto(name string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return &Error{name, underlying(err)}
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return &Error{name, underlying(err)}
	}
	return nil
}

// Place moves the complete file temp to name: a rename over a regular file
// (or none), and for a special file (see Special) a copy of temp's bytes
// into it, after which temp is removed. On an error temp is left for the
// caller to remove.
func Place(temp, name string) error {
	if !Special(name) {
		if err := rename(temp, name); err != nil {
			return &Error{name, err}
		}
		return nil
	}
	src, err := os.Open(temp)
	if err != nil {
		return &Error{name, underlying(err)}
	}
	defer src.Close()
	if err := writeInto(name, func(w io.Writer) error { _, err := io.Copy(w, src); return err }); err != nil {
		return err
	}
	os.Remove(temp)
	return nil
}
