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
	// Stdout and Stderr receive the child's output; an *os.File is
	// written by the child itself, with no copying goroutine. nil
	// discards. The child's standard input is /dev/null.
	Stdout, Stderr io.Writer
	// Grace is how long a cancelled child's process group has between
	// SIGTERM and SIGKILL; 0 kills it at once.
	Grace time.Duration
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
	prog := c.Path
	if prog == "" {
		prog = c.Argv[0]
		if p, ok := lookPath(prog); ok {
			prog = p // exec.Command would search PATH again
		}
	}
	if usage, ok, err := c.runDirect(ctx, prog); ok {
		return usage, err
	}
	cmd := exec.CommandContext(ctx, prog, c.Argv[1:]...)
	cmd.Args[0] = c.Argv[0]
	cmd.Dir, cmd.Env = c.Dir, c.Env
	if null := devNull(); null != nil {
		cmd.Stdin = null // nil would make exec open /dev/null for every command
	}
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	pidfd := setProcAttr(cmd)
	cmd.Cancel = func() error { return stopGroup(cmd, c.Grace > 0) }
	cmd.WaitDelay = c.Grace
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = 5 * time.Second
	}
	t0 := time.Now()
	err := cmd.Start()
	if err == nil {
		if *pidfd >= 0 {
			awaitExit(*pidfd)
		}
		err = cmd.Wait()
	}
	if ctx.Err() != nil && cmd.Process != nil {
		killGroup(cmd) // leave no grandchild behind
	}
	usage := usageOf(cmd, time.Since(t0))
	if err != nil && ctx.Err() != nil {
		return usage, context.Cause(ctx)
	}
	return usage, err
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
