package jobs

import "fmt"

// checkPipe refuses make's inherited pipes, which Windows does not have
// (make there passes a named semaphore).
func checkPipe(fd int) error {
	return fmt.Errorf("jobserver file descriptor %d: no inherited pipes on Windows", fd)
}
