package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// Runner runs a build's work as job steps of an allocation: it is the
// build executor's jobs.Runner for a cluster. Each call is one step, srun
// --exact -N1 -n1 -c<CPUs> --mem=<Memory>, a pipeline included: the step
// runs StepMain on its node (Self), which runs the commands there as
// jobs.Local runs them here and writes, into a result file in Dir, where
// it ran, how each command ended and what each cost. So a build records
// the tools' own peak memory and times, not srun's, and a failure on a node
// reads as it does here ("exit status 245", "signal: segmentation fault").
//
// Of a pipeline's commands that failed, only the one whose failure is the
// step's has an error: the first that failed of itself (not of a broken
// pipe), as the executor reports it.
//
// The runner bounds nothing: the build's job pool bounds the steps in
// flight. The commands' standard output and error are the last command's
// Stdout and Stderr; srun's and slurmstepd's own lines are kept out of
// them and used to say why a step failed.
type Runner struct {
	Cluster *Cluster
	// Self is the command that runs StepMain on a node: sycbuild's path
	// and StepCommand. The nodes must see it at that path.
	Self []string
	// Dir holds the steps' result files while they run: a directory of
	// the build that the nodes share.
	Dir string
	// Steps, when not nil, is given where each step ran (its id and node)
	// and its commands, once it ran: a log of the build's steps, to find
	// them in Slurm's own records.
	Steps func(jobs.Where, []*jobs.Command)

	seq   sync.Mutex
	count int
}

// Run runs cmds as one step; see jobs.Runner.
func (r *Runner) Run(ctx context.Context, cmds []*jobs.Command, req jobs.Request) ([]*jobs.Usage, []error, jobs.Where) {
	usages, errs := make([]*jobs.Usage, len(cmds)), make([]error, len(cmds))
	last := len(cmds) - 1
	result := filepath.Join(r.Dir, r.resultName())
	os.Remove(result) // a file of an earlier build would speak for this step
	defer os.Remove(result)

	first, final := cmds[0], cmds[last]
	slurmLines := &lineFilter{w: final.Stderr}
	env := first.Env
	if env != nil {
		env = append(append([]string(nil), r.Cluster.env...), env...)
	}
	step := &jobs.Command{Argv: append(append([]string(nil), r.Self...), stepArgs(result, cmds)...),
		Dir: first.Dir, Env: env, Stdin: first.Stdin, Stdout: final.Stdout, Stderr: slurmLines, Grace: first.Grace}
	if step.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			errs[last] = err
			return usages, errs, jobs.Where{}
		}
		step.Dir = wd
	}
	cpus := max(req.CPUs, 1)
	mem := r.Cluster.stepMemory(req.Memory, cpus)
	_, err := r.Cluster.Wrap(step, Step{CPUs: cpus, Memory: mem, Exclude: req.Exclude}).Run(ctx)
	slurmLines.Flush()
	start, end, rerr := readResult(result)
	where := jobs.Where{ID: start.ID, Node: start.Node}
	if where.ID != "" && r.Steps != nil {
		r.Steps(where, cmds)
	}
	if ctx.Err() != nil {
		// srun, stopped, ends its step; scancel makes sure of it when srun
		// was stopped while the step was being launched.
		if where.ID != "" {
			sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			r.Cluster.query(sctx, "scancel", where.ID)
			cancel()
		}
		for i := range errs {
			errs[i] = context.Cause(ctx)
		}
		return usages, errs, where
	}
	var ee *exec.ExitError
	errors.As(err, &ee)
	kind := Classify(slurmLines.Bytes())
	if end != nil && len(end.Cmds) == len(cmds) {
		for i, c := range end.Cmds {
			if c.Started {
				usages[i] = &jobs.Usage{User: time.Duration(c.User), System: time.Duration(c.System), MaxRSS: c.MaxRSS,
					Wall: time.Duration(c.Wall), ExitCode: c.Exit}
			}
		}
		switch f := end.Failed; {
		case f >= 0 && !end.Cmds[f].Started:
			errs[f] = errors.New(end.Cmds[f].Error)
		case f >= 0:
			errs[f] = &StepError{Status: end.Cmds[f].status(), Node: where.Node, Kind: kind, Memory: mem, exit: ee}
		case err != nil, kind == MemoryKilled, kind == NodeFailed:
			// The commands succeeded, and the step did not.
			errs[last] = r.stepFailure(err, ee, kind, where, mem, slurmLines.String())
		}
		return usages, errs, where
	}
	switch {
	case err != nil, kind != NoFailure:
		// srun ends 0 when the step's node failed under it.
		errs[last] = r.stepFailure(err, ee, kind, where, mem, slurmLines.String())
	case rerr != nil:
		errs[last] = fmt.Errorf("the step %s ran, but %v: the slurm executor needs the build directory on a file system the nodes share", where.ID, rerr)
	default:
		errs[last] = fmt.Errorf("the step %s ran, but its result %s is cut short", where.ID, result)
	}
	return usages, errs, where
}

// stepFailure is the error of a step that failed on its own: Slurm
// stopped it, or srun could not run it.
func (r *Runner) stepFailure(err error, ee *exec.ExitError, kind Failure, where jobs.Where, mem int64, slurm string) error {
	if ee == nil && kind == NoFailure {
		return err // srun did not start: the error says why
	}
	status := lastLines(slurm, 3)
	switch {
	case ee == nil:
	case status == "":
		status = "srun: " + ee.String()
	default:
		status += " (srun " + ee.String() + ")"
	}
	return &StepError{Status: status, Node: where.Node, Kind: kind, Memory: mem, exit: ee}
}

func (r *Runner) resultName() string {
	r.seq.Lock()
	defer r.seq.Unlock()
	r.count++
	return fmt.Sprintf(".step-%d-%d.json", os.Getpid(), r.count)
}

// readResult reads a step's result file: where it ran, and, once its
// commands ended, how they did (nil when they did not).
func readResult(path string) (stepStart, *stepEnd, error) {
	var start stepStart
	b, err := os.ReadFile(path)
	if err != nil {
		return start, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&start); err != nil {
		return start, nil, fmt.Errorf("%s: %v", path, err)
	}
	var end stepEnd
	if err := dec.Decode(&end); err != nil {
		return start, nil, nil
	}
	return start, &end, nil
}

// StepError is the failure of a command that ran as a step, or of the
// step itself. It wraps srun's *exec.ExitError (whose exit status is the
// command's) and, when Slurm killed the step for its memory or its node
// failed under it, jobs.ErrMemoryKilled or jobs.ErrNodeFailed.
type StepError struct {
	Status string  // how the command ended, as a local one's error says it
	Node   string  // where it ran
	Kind   Failure // why Slurm ended it, if it did
	Memory int64   // the step's --mem in bytes (0: none)
	exit   *exec.ExitError
}

func (e *StepError) Error() string {
	switch {
	case e.Kind == NoFailure:
		return e.Status
	case e.Kind == MemoryKilled && e.Memory > 0:
		return fmt.Sprintf("%s: killed by Slurm for exceeding its memory (--mem=%dM), on %s", e.Status, (e.Memory+1<<20-1)>>20, e.Node)
	}
	return fmt.Sprintf("%s: %v, on %s", e.Status, e.Kind, e.Node)
}

// Unwrap gives srun's exit and the engine's kind of failure.
func (e *StepError) Unwrap() []error {
	var errs []error
	if e.exit != nil {
		errs = append(errs, e.exit)
	}
	switch e.Kind {
	case MemoryKilled:
		errs = append(errs, jobs.ErrMemoryKilled)
	case NodeFailed:
		errs = append(errs, jobs.ErrNodeFailed)
	}
	return errs
}

// lineFilter passes what a step prints on to w, but for the lines of srun
// and slurmstepd themselves ("srun: error: …", "slurmstepd-n1: error: …"),
// which it keeps. A line is held until its end.
type lineFilter struct {
	w       io.Writer
	partial []byte
	kept    bytes.Buffer
}

func (f *lineFilter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.partial = append(f.partial, p...)
			break
		}
		line := p[:i+1]
		if len(f.partial) > 0 {
			line = append(f.partial, line...)
			f.partial = f.partial[:0]
		}
		if err := f.line(line); err != nil {
			return n, err
		}
		p = p[i+1:]
	}
	return n, nil
}

func (f *lineFilter) line(l []byte) error {
	if bytes.HasPrefix(l, []byte("srun: ")) || bytes.HasPrefix(l, []byte("slurmstepd")) {
		f.kept.Write(l)
		return nil
	}
	if f.w == nil {
		return nil
	}
	_, err := f.w.Write(l)
	return err
}

// Flush passes on a last line with no end.
func (f *lineFilter) Flush() {
	if len(f.partial) > 0 {
		f.line(f.partial)
		f.partial = nil
	}
}

// Bytes are srun's and slurmstepd's lines.
func (f *lineFilter) Bytes() []byte { return f.kept.Bytes() }

func (f *lineFilter) String() string { return f.kept.String() }

// stepMemory is a step's --mem. A prediction is made for scheduling (a
// peak recorded on inputs of similar size), and Slurm kills a step that
// passes its --mem: so a step is given half as much again as predicted,
// and never less than its CPUs' share of the allocation's memory (a step
// asking for none would be given all of its node's and run alone); at
// most a node's memory.
func (c *Cluster) stepMemory(predicted int64, cpus int) int64 {
	m := predicted + predicted/2
	if c.memory > 0 && c.cpus > 0 {
		m = max(m, c.memory/int64(c.cpus)*int64(cpus))
	}
	if node := c.NodeMemory(); node > 0 && m > node {
		m = node
	}
	return m
}
