package tools

import (
	"os/exec"
	"syscall"
)

// dieWithParent has cmd killed should sycbuild die first (a parent-death
// signal), so that no tool sycbuild started outlives it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
