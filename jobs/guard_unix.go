//go:build unix

package jobs

import (
	"bufio"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

// Each external command runs in a process group of its own, killed when
// the command ends or is stopped. A parent-death signal reaches only the
// command itself, not what it started (a wrapper script's compiler), so a
// sycbuild killed with SIGKILL would leave those writing into a build
// directory whose lock has passed on. The guard closes that gap: a small
// process (this program started again, see ServeGuard) to which sycbuild
// names each group when its command starts and again when it ends. The
// guard reads from a pipe whose only writer is sycbuild; when sycbuild
// dies, however it dies, the pipe ends and the guard kills every group
// still named.
//
// A group is named just after its command started (its id is the
// command's pid, known only then): were sycbuild killed in the instant
// between the two, what the command started in that instant would be left.

// guardEnv, set to "1" in its environment, makes this program the guard.
const guardEnv = "SYCBUILD_PROCESS_GUARD"

// ServeGuard is the guard's body: when this process was started as the
// guard, it serves until its parent is gone and returns true, and the
// program must then exit; otherwise it returns false at once. Programs
// that call UseGuard call ServeGuard first thing in main.
func ServeGuard() bool {
	if os.Getenv(guardEnv) != "1" {
		return false
	}
	// The guard outlives a Ctrl-C of its parent's terminal (it has a
	// process group of its own too) and any signal short of SIGKILL.
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	groups := map[int]bool{}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := in.Text()
		if len(line) < 2 {
			continue
		}
		pg, err := strconv.Atoi(line[1:])
		if err != nil || pg <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pg] = true
		case '-':
			delete(groups, pg)
		}
	}
	for pg := range groups {
		syscall.Kill(-pg, syscall.SIGKILL)
	}
	return true
}

var (
	guardOn   atomic.Bool
	guardOnce sync.Once
	guardMu   sync.Mutex
	guardPipe *os.File // nil: no guard could be started
)

// UseGuard makes the commands started from now on known to a guard, which
// is started with the first of them. The program must call ServeGuard
// first thing in main.
func UseGuard() { guardOn.Store(true) }

// startGuard starts the guard: this program again, its standard input
// the read end of a pipe whose write end (close-on-exec, so no command
// holds it) only this process has.
func startGuard() {
	// /proc/self/exe runs this program even when its file was replaced
	// or removed since it started (a reinstall during a build).
	exe := "/proc/self/exe"
	if _, err := os.Stat(exe); err != nil {
		if exe, err = os.Executable(); err != nil {
			return
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	defer r.Close()
	p, err := os.StartProcess(exe, []string{"sycbuild-guard"}, &os.ProcAttr{
		Env:   append(os.Environ(), guardEnv+"=1"),
		Files: []*os.File{r, nil, nil}, // it prints nothing, and holds no caller's pipe open
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		w.Close()
		return
	}
	// Reaped by init after this process: it exits only when this one did.
	p.Release()
	guardPipe = w
}

// guardReady starts the guard, if UseGuard asked for one, before the first
// command starts: a command must not run long unknown to the guard (the
// guard takes a millisecond or two to start, the command may be killed
// with this process meanwhile).
func guardReady() {
	if guardOn.Load() {
		guardOnce.Do(startGuard)
	}
}

// guardTell names the group pg to the guard: op '+' when its command
// started, '-' when it ended and the group was killed.
func guardTell(op byte, pg int) {
	if !guardOn.Load() {
		return
	}
	guardReady()
	if guardPipe == nil {
		return
	}
	b := strconv.AppendInt([]byte{op}, int64(pg), 10)
	b = append(b, '\n')
	guardMu.Lock()
	guardPipe.Write(b)
	guardMu.Unlock()
}
