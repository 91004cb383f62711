//go:build unix

package postlink

import (
	"io"
	"syscall"
	"unsafe"
)

// create writes data, the concatenation of its pieces, to a new file
// called name, replacing what was there: an existing file (or link) is
// unlinked first, never written through, so a file hard-linked elsewhere
// keeps its bytes. It uses plain system calls: an *os.File would ask for
// the descriptor's flags and try to register it with the network poller,
// for every file.
func create(name string, data ...[]byte) error {
	fd, err := openNew(name)
	if err == syscall.EEXIST {
		if err = syscall.Unlink(name); err == nil || err == syscall.ENOENT {
			fd, err = openNew(name)
		}
	}
	if err != nil {
		return err
	}
	err = writeAll(fd, data)
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		syscall.Unlink(name)
	}
	return err
}

// maxPieces is how many pieces one writev(2) is given (IOV_MAX).
const maxPieces = 1024

// writeAll writes the pieces of data to fd, in order, with writev(2).
func writeAll(fd int, data [][]byte) error {
	var iov [64]syscall.Iovec
	vec := iov[:0]
	for len(data) > 0 {
		// The next batch of non-empty pieces.
		vec = vec[:0]
		for _, p := range data {
			if len(vec) == maxPieces {
				break
			}
			if len(p) > 0 {
				v := syscall.Iovec{Base: &p[0]}
				v.SetLen(len(p))
				vec = append(vec, v)
			}
		}
		if len(vec) == 0 {
			return nil
		}
		n, _, errno := syscall.Syscall(syscall.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&vec[0])), uintptr(len(vec)))
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return errno
		case n == 0:
			return io.ErrShortWrite
		}
		// Drop what was written, a partial piece included.
		for k := int(n); k > 0; {
			if len(data[0]) <= k {
				k -= len(data[0])
				data = data[1:]
				continue
			}
			data[0] = data[0][k:]
			k = 0
		}
	}
	return nil
}

// openNew creates the file called name for writing; it fails with EEXIST
// if there is one.
func openNew(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o666)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
