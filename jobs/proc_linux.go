package jobs

import (
	"os"
	"os/exec"
	"syscall"
	"time"
	"unsafe"
)

// setProcAttr starts the child in a process group of its own, with a
// parent-death signal, and asks for a pidfd (set once the child started;
// -1 without one). A sycbuild killed with SIGKILL takes its tools with it,
// so none goes on writing in a build directory whose lock has passed to
// the next build. (The signal is sent when the thread that started the
// child ends; Go ends threads only when a goroutine locked to one exits,
// which sycbuild's do not.)
func setProcAttr(cmd *exec.Cmd) *int {
	pidfd := -1
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, PidFD: &pidfd, Pdeathsig: syscall.SIGKILL}
	return &pidfd
}

// outlive takes the parent-death signal off a child set up by setProcAttr.
func outlive(cmd *exec.Cmd) { cmd.SysProcAttr.Pdeathsig = 0 }

// usageOf reads a finished child's usage; nil if it did not start (no
// state).
func usageOf(ps *os.ProcessState, wall time.Duration) *Usage {
	if ps == nil {
		return nil
	}
	return &Usage{User: ps.UserTime(), System: ps.SystemTime(), Wall: wall, ExitCode: ps.ExitCode(), MaxRSS: PeakRSS(ps)}
}

// PeakRSS is a finished process's peak resident set size in bytes (wait4's
// maxrss); 0 where the system does not say.
func PeakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	return 0
}

// AwaitExit returns when the process a pidfd refers to has exited, having
// waited in Go's network poller, and closes the pidfd. After it, Wait
// reaps the child at once. (bench/spawnfloor waits the same way.)
func AwaitExit(pidfd int) {
	// A pidfd's status flags are O_RDWR alone (clone gives no others), so
	// one fcntl sets them, not a get and a set.
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(pidfd), syscall.F_SETFL, syscall.O_RDWR|syscall.O_NONBLOCK); e != 0 {
		syscall.Close(pidfd)
		return
	}
	f := os.NewFile(uintptr(pidfd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// The poller reports the exit as the pidfd becoming readable. The first
	// try asks the kernel (without reaping): Read forgets a report that came
	// before it, so an exit before the wait would otherwise be missed. A
	// report after that is the exit itself. (Should one ever come early,
	// Wait blocks until the exit: late, never wrong.)
	asked := false
	rc.Read(func(fd uintptr) bool {
		if asked {
			return true
		}
		asked = true
		return exited(int(fd))
	})
}

// exited reports whether the process of a pidfd has exited, leaving it to
// be reaped (waitid with WNOHANG|WNOWAIT).
func exited(pidfd int) bool {
	const pPidfd = 3 // P_PIDFD
	var info struct {
		signo, errno, code, _ int32
		pid                   int32
		_                     [108]byte
	}
	_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPidfd, uintptr(pidfd), uintptr(unsafe.Pointer(&info)),
		syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
	// An error (no such child, or the kernel cannot tell) ends the wait:
	// Wait then reports it.
	return e != 0 || info.pid != 0
}
