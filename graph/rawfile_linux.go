package graph

import "syscall"

// stat returns what fstat(2) says of the open file: whether it is a
// regular file, its size and its modification time in nanoseconds.
func (fd rawFile) stat() (regular bool, size, mtime int64, err error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd), &st); err != nil {
		return false, 0, 0, err
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFREG, st.Size, st.Mtim.Nano(), nil
}
