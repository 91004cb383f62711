//go:build unix && !linux

package jobs

import (
	"os/exec"
	"syscall"
)

func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func stopGroup(cmd *exec.Cmd, gentle bool) error {
	sig := syscall.SIGKILL
	if gentle {
		sig = syscall.SIGTERM
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}

func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

func signalOf(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}
