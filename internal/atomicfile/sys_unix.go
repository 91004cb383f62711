//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// processGone says whether no process pid runs.
func processGone(pid int) bool { return syscall.Kill(pid, 0) == syscall.ESRCH }

// createTemp creates a temporary file for name (see TempName), opened with
// plain system calls: os.OpenFile would also try (and, for a regular file,
// fail) to register it with the network poller.
func createTemp(name string) (*os.File, error) {
	for {
		temp := TempName(name)
		fd, err := syscall.Open(temp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o666)
		if err == nil {
			return os.NewFile(uintptr(fd), temp), nil
		}
		if err != syscall.EEXIST && err != syscall.EINTR {
			return nil, err
		}
	}
}

// rename is rename(2) itself, not os.Rename, which first asks whether the
// new name is a directory (an lstat per file).
func rename(from, to string) error { return syscall.Rename(from, to) }

// Sync makes the files called names durable: their data, their names
// (the result of a rename) and their directories. Where the system has
// syncfs (Linux), it flushes each file system the files are on once, which
// costs about what one fsync does however many files there are; elsewhere
// it syncs each file and each directory.
func Sync(names ...string) error {
	dirs := map[string]bool{}
	for _, n := range names {
		dirs[filepath.Dir(n)] = true
	}
	if haveSyncFS {
		devs := map[uint64]bool{}
		for _, n := range names {
			var st syscall.Stat_t
			if err := syscall.Stat(n, &st); err != nil {
				return &Error{n, err}
			}
			if dev := uint64(st.Dev); !devs[dev] {
				devs[dev] = true
				if err := syncPath(n, syncFS); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, n := range names {
		if err := syncPath(n, syscall.Fsync); err != nil {
			return err
		}
	}
	for d := range dirs {
		if err := syncPath(d, syscall.Fsync); err != nil {
			return err
		}
	}
	return nil
}

func syncPath(name string, sync func(fd int) error) error {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &Error{name, err}
	}
	defer syscall.Close(fd)
	if err = sync(fd); err != nil && err != syscall.EINVAL { // EINVAL: a file system that cannot sync
		return &Error{name, fmt.Errorf("sync: %w", err)}
	}
	return nil
}

// Special says whether name is something other than a regular file or a
// directory: a device, a FIFO, a socket or a symlink, which a write goes
// into rather than replaces.
func Special(name string) bool {
	var st syscall.Stat_t
	if syscall.Lstat(name, &st) != nil {
		return false
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG, syscall.S_IFDIR:
		return false
	}
	return true
}
