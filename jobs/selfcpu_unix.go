//go:build unix

package jobs

import (
	"syscall"
	"time"
)

// SelfCPU is the CPU time this process has used so far, in user and
// system mode (its children's not included); ok is false when the system
// does not say.
func SelfCPU() (user, system time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), true
}
