package jobs

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// startDirect starts the command through os.StartProcess itself, where
// exec.Cmd would add nothing: an absolute program, the child's output
// going to files (or discarded), no environment of its own. exec.Cmd
// starts a goroutine per command to watch a cancellable ctx; here
// context.AfterFunc watches it, and the child's environment is the one
// exec.Cmd would give it (Cmd.Environ: this process's, PWD set to Dir). ok is
// false, nothing having been done, for a command it does not run; else
// wait waits for the child, unless err says it did not start.
//
// The errors, the usage and what a cancelled ctx does are exec.Cmd's as
// Run sets it up: a child that failed is an *exec.ExitError, one that did
// not start os.StartProcess's error, and when ctx is done the process
// group is stopped (SIGTERM, SIGKILL after Grace; SIGKILL with no Grace)
// and the error is ctx's cause.
func (c *Command) startDirect(ctx context.Context, prog string) (wait func() (*Usage, error), ok bool, err error) {
	if !filepath.IsAbs(prog) {
		return nil, false, nil
	}
	stdin := c.Stdin
	if stdin == nil {
		stdin = devNull()
	}
	if stdin == nil {
		return nil, false, nil
	}
	stdout, ok := outFile(c.Stdout)
	if !ok {
		return nil, false, nil
	}
	stderr, ok := outFile(c.Stderr)
	if !ok {
		return nil, false, nil
	}
	if c.Env != nil {
		return nil, false, nil // exec.Cmd dedups a given environment
	}
	if c.Outlive {
		return nil, false, nil // exec.Cmd's path leaves out the parent-death signal
	}
	env := environ(c.Dir)
	if ctx.Err() != nil {
		return nil, true, context.Cause(ctx)
	}
	pidfd := -1
	sys := &syscall.SysProcAttr{Setpgid: true, PidFD: &pidfd, Pdeathsig: syscall.SIGKILL}
	guardReady()
	t0 := time.Now()
	p, err := os.StartProcess(prog, c.Argv, &os.ProcAttr{Dir: c.Dir, Env: env,
		Files: []*os.File{stdin, stdout, stderr}, Sys: sys})
	if err != nil {
		return nil, true, err
	}
	guardTell('+', p.Pid)
	exited := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		if c.Grace <= 0 {
			syscall.Kill(-p.Pid, syscall.SIGKILL)
			return
		}
		syscall.Kill(-p.Pid, syscall.SIGTERM)
		t := time.NewTimer(c.Grace)
		defer t.Stop()
		select {
		case <-exited:
		case <-t.C:
			p.Kill()
		}
	})
	return func() (*Usage, error) {
		if pidfd >= 0 {
			AwaitExit(pidfd)
		}
		ps, err := p.Wait()
		close(exited)
		cancelled := !stop()
		// Leave nothing the command started behind, whether it ended
		// or was stopped.
		syscall.Kill(-p.Pid, syscall.SIGKILL)
		guardTell('-', p.Pid)
		u := usageOf(ps, time.Since(t0))
		if err == nil && ps != nil && !ps.Success() {
			err = &exec.ExitError{ProcessState: ps}
		}
		if cancelled || err != nil && ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return u, err
	}, true, nil
}

// outFile is the file a child's output goes to: w itself, or /dev/null
// for nil. It is false for a writer that is not a file.
func outFile(w io.Writer) (*os.File, bool) {
	switch f := w.(type) {
	case nil:
		null := devNull()
		return null, null != nil
	case *os.File:
		return f, f != nil
	}
	return nil, false
}

// environ is the environment exec.Cmd gives a child in dir (Cmd.Environ:
// this process's, PWD set to dir, deduplicated). It is remembered for the
// last dir while this process's environment stays the same, which one
// copy and compare tells (the deduplicating costs more); a relative dir,
// which names another directory after a chdir, is never remembered.
func environ(dir string) []string {
	if dir != "" && !filepath.IsAbs(dir) {
		return (&exec.Cmd{Dir: dir}).Environ()
	}
	raw := os.Environ()
	envMemo.Lock()
	defer envMemo.Unlock()
	if envMemo.env == nil || dir != envMemo.dir || !slices.Equal(raw, envMemo.raw) {
		envMemo.dir, envMemo.raw, envMemo.env = dir, raw, (&exec.Cmd{Dir: dir}).Environ()
	}
	return envMemo.env
}

var envMemo struct {
	sync.Mutex
	dir      string
	raw, env []string
}

// Pipe makes a pipe between two children: its ends are blocking files,
// not registered with Go's poller (os.Pipe's are, and a child needs them
// blocking). bench/spawnfloor makes its pipes with it too.
func Pipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
