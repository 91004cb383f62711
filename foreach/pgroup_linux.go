package foreach

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the child in a process group of its own, so that
// stopping it also stops whatever it started, and has it killed should
// this process die (a parent-death signal: nothing keeps writing outputs
// after llvm-foreach was killed).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
