//go:build unix

package graph

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// rawFile is a file open for reading through plain system calls: os.Open
// would also try (and, for a regular file, fail) to register the file with
// the network poller, four fcntl and an epoll_ctl per file, in a build that
// hashes thousands.
type rawFile int

// openRead opens a file for reading. O_NONBLOCK keeps the open of a FIFO
// from waiting for a writer; it changes nothing for a regular file.
func openRead(path string) (rawFile, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return rawFile(fd), nil
}

// Read reads into p; it returns 0 and no error at the end of the file.
func (fd rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), p)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

// ReadAt reads len(p) bytes at off (pread), or fails with io.EOF.
func (fd rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		k, err := syscall.Pread(int(fd), p[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if k == 0 {
			return n, io.EOF
		}
		n += k
	}
	return n, nil
}

// Close closes the file.
func (fd rawFile) Close() error { return syscall.Close(int(fd)) }

// openDirLock opens the directory dir for its lock.
func openDirLock(dir string) (*os.File, error) { return os.Open(dir) }

// tryLock takes the lock on f if no other process holds it.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// waitLock waits for the lock on f.
func waitLock(f *os.File) error {
	for {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != syscall.EINTR {
			return err
		}
	}
}
