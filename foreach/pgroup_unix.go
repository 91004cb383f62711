//go:build unix && !linux

package foreach

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the child in a process group of its own, so that
// stopping it also stops whatever it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
