//go:build unix

package jobs

import (
	"os/exec"
	"syscall"
)

// setGroup starts the child in a process group of its own, so that
// stopping it also stops whatever it started. (Linux's setProcAttr does
// more; this is the other Unix systems'.)
//
//lint:ignore U1000 used on Unix systems other than Linux (proc_other.go)
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// stopGroup asks the child's process group to stop: SIGTERM when gentle,
// else SIGKILL.
func stopGroup(cmd *exec.Cmd, gentle bool) error {
	sig := syscall.SIGKILL
	if gentle {
		sig = syscall.SIGTERM
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}

// killGroup kills what is left of the child's process group.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// signalOf is the signal that ended a child, or 0.
func signalOf(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}
