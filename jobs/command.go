package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Command is one external process to run.
type Command struct {
	// Argv is the program and its arguments; Argv[0] is what the child
	// sees as its name. A name without a slash is looked up on PATH.
	Argv []string
	// Path, if set, is the executable to run in place of Argv[0]'s.
	Path string
	// Dir is the child's working directory; "" is the current one.
	Dir string
	// Env is the child's environment; nil inherits this process's.
	Env []string
	// Stdin is the child's standard input; nil is /dev/null.
	Stdin *os.File
	// Stdout and Stderr receive the child's output; an *os.File is
	// written by the child itself, with no copying goroutine. nil
	// discards.
	Stdout, Stderr io.Writer
	// Grace is how long a cancelled child's process group has between
	// SIGTERM and SIGKILL; 0 kills it at once.
	Grace time.Duration
	// Outlive leaves out the parent-death signal and the guard: the child
	// is not killed when sycbuild dies. It is for a child whose end sycbuild arranges
	// otherwise, one that exits when its standard input (a pipe from
	// sycbuild) closes, as slurm's allocation holder does: killed at once
	// it could not give back what it holds.
	Outlive bool
}

// Usage is what a child process cost, from wait4's rusage.
type Usage struct {
	User, System time.Duration // CPU time
	MaxRSS       int64         // peak resident set size, bytes
	Wall         time.Duration
	ExitCode     int // -1 when a signal ended it
}

// Add accumulates another command's usage into u (MaxRSS is the largest,
// ExitCode the last).
func (u *Usage) Add(v *Usage) {
	u.User += v.User
	u.System += v.System
	u.MaxRSS = max(u.MaxRSS, v.MaxRSS)
	u.Wall += v.Wall
	u.ExitCode = v.ExitCode
}

// Run runs the command and waits for it. The child runs in a process
// group of its own, which cancelling ctx stops (see Grace) and which is
// killed should sycbuild die (Linux's parent-death signal). Waiting
// blocks in Go's poller on a pidfd where the system has them, so a long
// compile holds no thread (a thread blocked in wait4 makes Go's monitor
// wake every 20 µs).
//
// The error is nil, an *exec.ExitError, an error starting the program, or
// ctx's cause when ctx was cancelled. The usage is nil when the child did
// not start.
func (c *Command) Run(ctx context.Context) (*Usage, error) {
	wait, err := c.start(ctx)
	if err != nil {
		return nil, err
	}
	return wait()
}

// Start starts the command and returns at once; wait waits for it and says
// how it ended, as Run does. For a child this process must talk to while it
// runs, whose files it may close once the child has them.
func (c *Command) Start(ctx context.Context) (wait func() (*Usage, error), err error) {
	return c.start(ctx)
}

// start starts the command; wait waits for it and says how it ended, as
// Run does.
func (c *Command) start(ctx context.Context) (wait func() (*Usage, error), err error) {
	prog := c.Path
	if prog == "" {
		prog = c.Argv[0]
		if p, ok := lookPath(prog); ok {
			prog = p // exec.Command would search PATH again
		}
	}
	if wait, ok, err := c.startDirect(ctx, prog); ok {
		return wait, err
	}
	cmd := exec.CommandContext(ctx, prog, c.Argv[1:]...)
	cmd.Args[0] = c.Argv[0]
	cmd.Dir, cmd.Env = c.Dir, c.Env
	switch null := devNull(); {
	case c.Stdin != nil:
		cmd.Stdin = c.Stdin
	case null != nil:
		cmd.Stdin = null // nil would make exec open /dev/null for every command
	}
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	pidfd := setProcAttr(cmd)
	if c.Outlive {
		outlive(cmd)
	}
	cmd.Cancel = func() error { return stopGroup(cmd, c.Grace > 0) }
	cmd.WaitDelay = c.Grace
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 5 * time.Second
	}
	if !c.Outlive {
		guardReady()
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, err
	}
	// A child that outlives this process is not the guard's to kill.
	if !c.Outlive {
		guardTell('+', cmd.Process.Pid)
	}
	return func() (*Usage, error) {
		if *pidfd >= 0 {
			AwaitExit(*pidfd)
		}
		err := cmd.Wait()
		// Leave nothing the command started behind, whether it ended or
		// was stopped.
		killGroup(cmd)
		if !c.Outlive {
			guardTell('-', cmd.Process.Pid)
		}
		usage := usageOf(cmd.ProcessState, time.Since(t0))
		if err != nil && ctx.Err() != nil {
			return usage, context.Cause(ctx)
		}
		return usage, err
	}, nil
}

// RunPipeline runs commands with each one's standard output going to the
// next one's standard input through a pipe (their Stdout, but for the
// last, and Stdin, but for the first, are set here), all at once, and
// waits for them all. Each gets what Run would return; a command that did
// not start gets its error and no usage, and its neighbours then see the
// end of their input or a broken pipe.
func RunPipeline(ctx context.Context, cmds []*Command) ([]*Usage, []error) {
	usages, errs := make([]*Usage, len(cmds)), make([]error, len(cmds))
	waits := make([]func() (*Usage, error), len(cmds))
	var in *os.File // the read end of the pipe from the previous command
	for i, c := range cmds {
		c := *c
		if i > 0 {
			c.Stdin = in
		}
		var next, out *os.File
		if i < len(cmds)-1 {
			next, out, errs[i] = Pipe()
			c.Stdout = out
		}
		if errs[i] == nil {
			waits[i], errs[i] = c.start(ctx)
		}
		// The children hold the pipe's ends now: this process keeps none,
		// so that each end closes when its child exits.
		if in != nil {
			in.Close()
		}
		if out != nil {
			out.Close()
		}
		in = next
	}
	for i, wait := range waits {
		if wait != nil {
			usages[i], errs[i] = wait()
		}
	}
	return usages, errs
}

// ExitCode is the exit status a failed Run's error stands for: the
// child's, 128+signal when a signal ended it, and 1 when it did not run.
func ExitCode(err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 1
	}
	if sig := signalOf(ee); sig > 0 {
		return 128 + sig
	}
	if code := ee.ExitCode(); code > 0 {
		return code
	}
	return 1
}

// BrokenPipe reports whether a failed Run's error is what a command of a
// pipeline gets when a later one stopped reading: killed by SIGPIPE, exit
// status 141 (a shell whose command SIGPIPE killed), or 74 (EX_IOERR),
// with which LLVM's tools end on SIGPIPE.
func BrokenPipe(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	code := ee.ExitCode()
	return signalOf(ee) == int(syscall.SIGPIPE) || code == 128+int(syscall.SIGPIPE) || code == 74
}

// devNull is /dev/null, opened once, for reading and writing: children
// read no input (parallel children cannot share a terminal's), and output
// nobody wants goes there.
var devNull = sync.OnceValue(func() *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return f
})

// lookPaths caches PATH lookups: exec.Command searches PATH for every
// command, a dozen stat calls each time in a fan-out of thousands.
var lookPaths sync.Map

// lookPath resolves a program name found on PATH (names with a slash are
// left to exec). PATH is the process's and does not change during a build.
func lookPath(name string) (string, bool) {
	if strings.Contains(name, "/") {
		return "", false
	}
	if p, ok := lookPaths.Load(name); ok {
		return p.(string), true
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", false
	}
	lookPaths.Store(name, p)
	return p, true
}

// CaptureFile returns an unnamed temporary file for a child's output: the
// child writes it directly (no pipe, no copying goroutine), and it goes
// with its last close.
func CaptureFile() (*os.File, error) {
	f, err := os.CreateTemp("", "sycbuild-output-")
	if err != nil {
		return nil, fmt.Errorf("cannot capture a command's output: %w", err)
	}
	os.Remove(f.Name()) // unnamed from now on (on Windows, when closed)
	return f, nil
}
