package jobs

import (
	"time"

	"golang.org/x/sys/windows"
)

// SelfCPU is the CPU time this process has used so far, in user and
// system mode (its children's not included); ok is false when the system
// does not say.
func SelfCPU() (user, system time.Duration, ok bool) {
	var created, exited, kernel, usr windows.Filetime
	if windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &usr) != nil {
		return 0, 0, false
	}
	// A Filetime counts 100 ns intervals.
	ticks := func(t windows.Filetime) time.Duration {
		return time.Duration(int64(t.HighDateTime)<<32|int64(t.LowDateTime)) * 100
	}
	return ticks(usr), ticks(kernel), true
}
