//go:build !linux

package jobs

import (
	"os"
	"os/exec"
	"time"
)

// Without Linux's pidfd and parent-death signal the child gets a process
// group of its own where the system has them (proc_unix.go), and Wait
// blocks a thread.

func setProcAttr(cmd *exec.Cmd) *int {
	setGroup(cmd)
	none := -1
	return &none
}

// PeakRSS is Linux's; here the system does not say.
func PeakRSS(*os.ProcessState) int64 { return 0 }

// outlive does nothing: there is no parent-death signal here.
func outlive(*exec.Cmd) {}

// AwaitExit returns at once: there are no pidfds here.
func AwaitExit(int) {}

func usageOf(ps *os.ProcessState, wall time.Duration) *Usage {
	if ps == nil {
		return nil
	}
	return &Usage{User: ps.UserTime(), System: ps.SystemTime(), Wall: wall, ExitCode: ps.ExitCode()}
}
