//go:build unix

package jobs

import (
	"fmt"
	"syscall"
)

// checkPipe says why file descriptor fd is not a usable jobserver pipe.
func checkPipe(fd int) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fmt.Errorf("jobserver file descriptor %d: %w", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return fmt.Errorf("jobserver file descriptor %d is not a pipe", fd)
	}
	return nil
}
