package foreach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/jobs"
)

// Options say how Run runs the jobs.
type Options struct {
	// Pool limits how many children run at once; nil runs one at a time.
	Pool jobs.Pool
	// Stdout and Stderr receive each child's captured output, whole, when
	// it ends; Stderr also gets the report of a failing child. nil discards.
	Stdout, Stderr io.Writer
	// Name prefixes Run's own messages (e.g. "llvm-foreach").
	Name string
	// Dir is the children's working directory; "" is the current one.
	Dir string
	// Env is the children's environment; nil inherits this process's.
	Env []string
	// KillGrace is how long a cancelled child has between SIGTERM and
	// SIGKILL; 0 means 2 seconds.
	KillGrace time.Duration
}

// Failure is a job whose child failed.
type Failure struct {
	Index    int
	Args     []string // the full command line, program first
	ExitCode int
	Err      error // why, as text: "exit status 1", "signal: killed", a start error
}

// Result is what a finished Run produced.
type Result struct {
	// Outputs are the output files, in list order (none without
	// OutReplace).
	Outputs []string
	// ExitCode is the last non-zero child exit code in list order, or 0.
	ExitCode int
	// Failures are the failed jobs, in list order.
	Failures []Failure
}

// job is the state of one child.
type job struct {
	args   []string
	output string
	done   bool // finished successfully
	fail   *Failure
}

// Run runs the spec's jobs and waits for them. Child failures are not
// errors: they are in the Result (and printed to Stderr). The error is for
// a spec that cannot run (bad placeholders, program not found, an output
// that cannot be created) and for cancellation; then no output file list is
// written and the outputs of unfinished jobs are removed.
func Run(ctx context.Context, spec *Spec, opt Options) (*Result, error) {
	p, err := spec.compile()
	if err != nil {
		return nil, err
	}
	prog, err := spec.check()
	if err != nil {
		return nil, err
	}
	if opt.Pool == nil {
		opt.Pool = jobs.NewPool(1)
	}
	if opt.Stdout == nil {
		opt.Stdout = io.Discard
	}
	if opt.Stderr == nil {
		opt.Stderr = io.Discard
	}
	if opt.KillGrace == 0 {
		opt.KillGrace = 2 * time.Second
	}
	r := &runner{opt: opt, prog: prog, jobs: make([]job, p.jobs)}
	var wg sync.WaitGroup
	var runErr error
	for j := range r.jobs {
		tok, err := opt.Pool.Acquire(ctx)
		if err != nil {
			runErr = err
			break
		}
		jb := &r.jobs[j]
		if spec.OutReplace != "" {
			if jb.output, err = p.newOutput(j); err != nil {
				opt.Pool.Release(tok)
				runErr = err
				break
			}
		}
		jb.args = append([]string{spec.Command[0]}, p.command(j, jb.output)...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer opt.Pool.Release(tok)
			r.run(ctx, j)
		}()
	}
	wg.Wait()
	if runErr == nil && ctx.Err() != nil {
		runErr = context.Cause(ctx)
	}

	res := r.result()
	if spec.OutFileList != "" && (runErr != nil || len(res.Failures) > 0) {
		os.Remove(spec.OutFileList) // a list from an earlier run must not pass for this one's
	}
	if runErr != nil {
		return res, runErr
	}
	if spec.OutFileList != "" && len(res.Failures) == 0 {
		err := atomicfile.Write(spec.OutFileList, func(w io.Writer) error {
			_, err := io.WriteString(w, listText(res.Outputs))
			return err
		})
		if err != nil {
			return res, fmt.Errorf("error opening the file '%s': %w", spec.OutFileList, err)
		}
	}
	return res, nil
}

// check finds the spec's program and checks, before anything runs, that
// its outputs can be written, as the reference does.
func (spec *Spec) check() (prog string, err error) {
	prog, err = exec.LookPath(spec.Command[0])
	if errors.Is(err, exec.ErrDot) { // found through a relative PATH entry
		prog, err = filepath.Abs(prog)
	}
	if err != nil {
		return "", err
	}
	if spec.OutReplace != "" && spec.OutDir != "" {
		if fi, err := os.Stat(spec.OutDir); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("Could not create a file for command output.: the output directory %s does not exist", spec.OutDir)
		}
	}
	if spec.OutFileList != "" {
		if fi, err := os.Stat(filepath.Dir(spec.OutFileList)); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("error opening the file '%s': its directory does not exist", spec.OutFileList)
		}
	}
	return prog, nil
}

// result collects the jobs' outputs and failures, and removes the outputs
// of the jobs that did not finish.
func (r *runner) result() *Result {
	res := &Result{}
	for j := range r.jobs {
		jb := &r.jobs[j]
		if jb.output != "" {
			res.Outputs = append(res.Outputs, jb.output)
		}
		if jb.fail != nil {
			res.Failures = append(res.Failures, *jb.fail)
			res.ExitCode = jb.fail.ExitCode
		}
		if !jb.done && jb.output != "" {
			os.Remove(jb.output) // failed, interrupted or never started
		}
	}
	return res
}

// newOutput makes job j's output name: fixed in deterministic mode (a stale
// file of that name is removed first, so it cannot pass for this job's
// output), else a new unique file like the reference's.
func (p *plan) newOutput(j int) (string, error) {
	if p.spec.Deterministic {
		name := p.deterministicOutput(j)
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("Could not create a file for command output.: %w", err)
		}
		return name, nil
	}
	ext := ""
	if p.spec.OutExt != "" {
		ext = "." + p.spec.OutExt
	}
	f, err := os.CreateTemp(p.spec.OutDir, Stem(p.spec.OutReplace)+"-*"+ext)
	if err != nil {
		return "", fmt.Errorf("Could not create a file for command output.: %w", err)
	}
	f.Close()
	if p.spec.OutDir == "" {
		return f.Name(), nil
	}
	// os.CreateTemp joins the directory as given; keep the caller's form.
	return filepath.Join(p.spec.OutDir, filepath.Base(f.Name())), nil
}

func listText(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.String()
}

// runner runs the children of one Run.
type runner struct {
	opt  Options
	prog string
	jobs []job
	mu   sync.Mutex // serializes printing
}

// run runs job j's child, waits for it (blocking) and prints its output.
func (r *runner) run(ctx context.Context, j int) {
	jb := &r.jobs[j]
	stdout, err1 := jobs.CaptureFile()
	stderr, err2 := jobs.CaptureFile()
	defer closeAll(stdout, stderr)
	if err := errors.Join(err1, err2); err != nil {
		r.finish(jb, j, stdout, stderr, -1, err)
		return
	}
	cmd := jobs.Command{Argv: jb.args, Path: r.prog, Dir: r.opt.Dir, Env: r.opt.Env,
		Stdout: stdout, Stderr: stderr, Grace: r.opt.KillGrace}
	_, err := cmd.Run(ctx)
	if err != nil && ctx.Err() != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		copyCaptured(r.opt.Stdout, stdout)
		copyCaptured(r.opt.Stderr, stderr)
		return // interrupted: neither done nor a failure of its own
	}
	code := 0
	if err != nil {
		code = jobs.ExitCode(err)
	}
	r.finish(jb, j, stdout, stderr, code, err)
}

// finish records job j's end and prints its captured output, whole.
func (r *runner) finish(jb *job, j int, stdout, stderr *os.File, code int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	copyCaptured(r.opt.Stdout, stdout)
	copyCaptured(r.opt.Stderr, stderr)
	if err == nil {
		jb.done = true
		return
	}
	if code <= 0 {
		code = 1
	}
	jb.fail = &Failure{Index: j, Args: jb.args, ExitCode: code, Err: err}
	fmt.Fprintf(r.opt.Stderr, "%s: command failed (%v): %s\n", r.name(), err, QuoteCommand(jb.args))
}

func (r *runner) name() string {
	if r.opt.Name == "" {
		return "foreach"
	}
	return r.opt.Name
}

func copyCaptured(w io.Writer, f *os.File) {
	if f == nil {
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err == nil {
		io.Copy(w, f)
	}
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}
