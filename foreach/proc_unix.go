//go:build unix

package foreach

import (
	"errors"
	"os/exec"
	"syscall"
)

// terminate asks the child's process group to stop (SIGTERM).
func terminate(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}

// killGroup kills what is left of the child's process group.
func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// exitCode is the child's exit status, or 128+signal when a signal ended it.
func exitCode(cmd *exec.Cmd, err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 1
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
