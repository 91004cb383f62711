package jobstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// Runner is a jobs.Runner for tests that starts no process: Do does each
// command's work in this process. It remembers every Run it is given, in
// the order they start.
type Runner struct {
	// Do does one command's work and says how it ended (nil: exit status
	// 0). The commands of a pipeline are done one after the other, each
	// one's output the next one's input. Files (the default) is one.
	Do func(ctx context.Context, c *Call) error
	// Before, if set, is called as a Run starts, with its number (0 for
	// the first Run) and its request: it says where the work runs, and an
	// error it returns fails every command of the Run, none of which is
	// done (a machine that failed under them).
	Before func(run int, req jobs.Request) (jobs.Where, error)

	mu   sync.Mutex
	runs []Run
}

// Call is one command for Do: its command line, its working directory and
// its standard streams.
type Call struct {
	Argv   []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	// Wall is the time the command's usage reports: how long Do took,
	// unless Do sets it. MaxRSS is its peak memory, 0 unless Do sets it.
	Wall   time.Duration
	MaxRSS int64
}

// Run is what a Run was given: the command lines and the request.
type Run struct {
	Argvs   [][]string
	Request jobs.Request
}

// Runs returns the Runs started so far, in the order they started.
func (r *Runner) Runs() []Run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Run(nil), r.runs...)
}

// Run does cmds' work. A command's usage reports Call.Wall, Call.MaxRSS and exit code
// 0 or 1; one after a failed command of the pipeline is not done, and its
// usage is nil.
func (r *Runner) Run(ctx context.Context, cmds []*jobs.Command, req jobs.Request) ([]*jobs.Usage, []error, jobs.Where) {
	run := Run{Request: req}
	for _, c := range cmds {
		run.Argvs = append(run.Argvs, append([]string(nil), c.Argv...))
	}
	r.mu.Lock()
	n := len(r.runs)
	r.runs = append(r.runs, run)
	r.mu.Unlock()
	usages, errs := make([]*jobs.Usage, len(cmds)), make([]error, len(cmds))
	var where jobs.Where
	if r.Before != nil {
		var err error
		if where, err = r.Before(n, req); err != nil {
			for i := range errs {
				errs[i] = err
			}
			return usages, errs, where
		}
	}
	do := r.Do
	if do == nil {
		do = Files
	}
	var in []byte
	for i, c := range cmds {
		if err := ctx.Err(); err != nil {
			errs[i] = err
			break
		}
		var out bytes.Buffer
		call := &Call{Argv: c.Argv, Dir: c.Dir, Stdin: bytes.NewReader(in), Stdout: &out}
		if i == len(cmds)-1 && c.Stdout != nil {
			call.Stdout = c.Stdout
		}
		start := time.Now()
		err := do(ctx, call)
		if call.Wall == 0 {
			call.Wall = time.Since(start)
		}
		usages[i], errs[i] = &jobs.Usage{Wall: call.Wall, MaxRSS: call.MaxRSS}, err
		if err != nil {
			usages[i].ExitCode = 1
			break
		}
		in = out.Bytes()
	}
	return usages, errs, where
}

// Files is a Do for commands that only read and write files: a command
// line is an operation, its input files, and its output file last (each
// path relative to the command's directory). The operations are "cat"
// (the inputs one after the other), "upper" (the same, in upper case),
// "first" (the first byte of the inputs) and "fail" (writes nothing and
// fails). An input "-" is the command's standard input, an output "-" its
// standard output.
func Files(_ context.Context, c *Call) error {
	if c.Argv[0] == "fail" {
		return errors.New("failed as told")
	}
	if len(c.Argv) < 2 {
		return fmt.Errorf("%s: no output file", c.Argv[0])
	}
	var data []byte
	for _, in := range c.Argv[1 : len(c.Argv)-1] {
		var b []byte
		var err error
		if in == "-" {
			b, err = io.ReadAll(c.Stdin)
		} else {
			b, err = os.ReadFile(at(c.Dir, in))
		}
		if err != nil {
			return err
		}
		data = append(data, b...)
	}
	switch c.Argv[0] {
	case "cat":
	case "upper":
		data = []byte(strings.ToUpper(string(data)))
	case "first":
		data = data[:min(len(data), 1)]
	default:
		return fmt.Errorf("%s: unknown operation", c.Argv[0])
	}
	out := c.Argv[len(c.Argv)-1]
	if out == "-" {
		_, err := c.Stdout.Write(data)
		return err
	}
	return os.WriteFile(at(c.Dir, out), data, 0o644)
}

func at(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}
