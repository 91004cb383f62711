// Package atomicfile writes files so that no reader ever sees a partial one:
// the bytes go to a temporary file in the same directory, which is renamed
// into place only when complete. A failure leaves the old file (or none) and
// no temporary file behind.
//
// Durability: Write syncs the file's data (fsync) before renaming it, so
// that after a power loss the name holds either the old file or the whole
// new one, never an empty or partial file (a rename without fsync survives
// a killed process but not a crashed machine). The rename itself becomes
// durable when the directory is synced; Sync does that for callers that
// must not record a file as written before it is on disk (sycbuild's build
// log records an output only after syncing it and its directory). A file
// that was only renamed, not synced, is at worst missing or old after a
// crash, and the build log's content hashes notice that.
//
// Temporary names are unique per process and call, and hidden:
// ".<name>.tmp<pid>-<n>" beside the file. TempName makes one for files that
// other programs write; RemoveStale removes those that processes which no
// longer run left behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	return dir + "." + base + ".tmp" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(seq.Add(1), 10)
}

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
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	removed := 0
	for _, n := range names {
		pid, ok := tempOwner(n)
		if !ok || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
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
	var f *os.File
	for {
		f, err = os.OpenFile(TempName(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
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
	if err = f.Sync(); err != nil {
		return &Error{name, underlying(err)}
	}
	if err = f.Close(); err != nil {
		return &Error{name, underlying(err)}
	}
	if err = os.Rename(f.Name(), name); err != nil {
		if fi, serr := os.Stat(name); serr == nil && fi.IsDir() {
			// rename(2) says EEXIST ("file exists") for a directory.
			return &Error{name, syscall.EISDIR}
		}
		return &Error{name, underlying(err)}
	}
	return nil
}

// Sync makes the files called names durable: their data, then each of
// their directories once (which makes their names, a rename's result,
// durable).
func Sync(names ...string) error {
	dirs := map[string]bool{}
	for _, n := range names {
		if err := syncPath(n); err != nil {
			return err
		}
		dirs[filepath.Dir(n)] = true
	}
	for d := range dirs {
		if err := syncPath(d); err != nil {
			return err
		}
	}
	return nil
}

func syncPath(name string) error {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &Error{name, err}
	}
	defer syscall.Close(fd)
	if err = syscall.Fsync(fd); err != nil && err != syscall.EINVAL { // EINVAL: a file system that cannot sync
		return &Error{name, fmt.Errorf("sync: %w", err)}
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
