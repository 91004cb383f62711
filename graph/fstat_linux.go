package graph

import "syscall"

// fstat returns what fstat(2) says of an open file: whether it is a
// regular file, its size and its modification time in nanoseconds.
func fstat(fd int) (regular bool, size, mtime int64, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return false, 0, 0, err
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFREG, st.Size, st.Mtim.Nano(), nil
}
