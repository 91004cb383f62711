package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/foreach"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

func numCPU() int { return runtime.NumCPU() }

// fanoutLane+action id is the trace lane of a fan-out's overall span.
const fanoutLane = 1000

// readItems reads a fan-out's list as llvm-foreach reads one
// (foreach.ReadList). Unlike namedFiles it keeps repeats: every line is a
// job.
func readItems(dir, path string) ([]string, error) {
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return foreach.ReadListFile(path)
}

// template is what identifies a fan-out's commands independently of its
// items: the steps' arguments and placeholders, and the output directory.
func (f *Fanout) template() (tools []*Tool, argvs [][]string) {
	for _, s := range f.Steps {
		tools = append(tools, s.Tool)
		argv := append([]string{s.Tool.Path}, s.Args...)
		for _, in := range s.In {
			argv = append(argv, fmt.Sprintf("\x00in %s %d", in.Placeholder, in.From))
		}
		if s.Out != nil {
			argv = append(argv, "\x00out "+s.Out.Placeholder+" "+s.Out.Ext+" "+s.Out.List.Path)
		}
		argvs = append(argvs, append(argv, "\x00dir "+f.Dir))
	}
	return tools, argvs
}

func (f *Fanout) tools() []*Tool {
	t, _ := f.template()
	return t
}

// fanoutKey is the key of a whole fan-out: its template, its list and the
// items' contents. When it matches the record and every output is intact,
// no job needs to be looked at (a no-op rebuild stays cheap).
func (b *builder) fanoutKey(a *Action) (keyParts, error) {
	inputs, err := b.inputStates(a.In)
	if err != nil {
		return keyParts{}, err
	}
	tools, argvs := a.Fanout.template()
	return makeKey(tools, argvs, inputs), nil
}

var errNotRun = errors.New("not run")

func (b *builder) doFanout(ctx, stop context.Context, pool Pool, a *Action) {
	f := a.Fanout
	e := Event{Kind: KindFanout, Action: a.id, Desc: a.Desc, Tool: f.Steps[0].Tool.Name, Outputs: paths(a.Out), Slot: -1}
	if !b.mayStart(stop, a) {
		b.finish(a, e, stateNotRun, nil)
		return
	}
	items, err := readItems(b.opt.Dir, f.List.Path)
	if err != nil {
		b.finish(a, e, stateFailed, err)
		return
	}
	e.Jobs = len(items)
	parts, err := b.fanoutKey(a)
	if err != nil {
		b.finish(a, e, stateFailed, err)
		return
	}
	name := a.Out[0].Path
	prev := b.log.get(name)
	ok, reasons := b.upToDate(name, parts)
	if ok {
		b.mu.Lock()
		b.res.JobsCached += len(items)
		b.mu.Unlock()
		b.finish(a, e, stateUpToDate, nil)
		return
	}
	b.obs.OutOfDate(name, reasons)
	b.obs.Planned(len(items))
	// The fan-out as a whole holds no token; its span is its jobs'.
	e.Start = time.Now()
	b.obs.Started(e)
	finish := func(s state, err error) {
		e.End = time.Now()
		b.finish(a, e, s, err)
	}
	// The jobs' up-to-date checks run here, one after the other (they
	// only stat and hash files); a job that must run gets a token first
	// and then a goroutine, so at most one goroutine per token exists
	// however long the list is.
	if err := os.MkdirAll(b.path(f.Dir), 0o755); err != nil {
		finish(stateFailed, err)
		return
	}
	jobs := make([]*job, len(items))
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, item := range items {
		jobs[i] = f.job(i, item)
		if stop.Err() != nil {
			errs[i] = errNotRun
			continue
		}
		run, err := b.checkJob(a, jobs[i])
		if err != nil || run == nil {
			errs[i] = err
			continue
		}
		tok, err := pool.Acquire(stop)
		if err != nil {
			errs[i] = errNotRun
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.runJob(ctx, pool, tok, a, run)
		}()
	}
	wg.Wait()
	failed, notRun := 0, 0
	for _, err := range errs {
		switch {
		case errors.Is(err, errNotRun):
			notRun++
		case err != nil:
			failed++
		}
	}
	switch {
	case ctx.Err() != nil:
		finish(stateNotRun, nil)
		return
	case failed > 0:
		finish(stateFailed, nil)
		return
	case notRun > 0:
		finish(stateNotRun, nil)
		return
	}
	// Every job succeeded: write the output lists, then record the whole.
	for k, s := range f.Steps {
		if s.Out == nil {
			continue
		}
		var list bytes.Buffer
		for _, j := range jobs {
			list.WriteString(j.outputs[k][0])
			list.WriteByte('\n')
		}
		b.log.forget(s.Out.List.Path)
		if err := atomicfile.Write(b.path(s.Out.List.Path), func(w io.Writer) error { _, err := w.Write(list.Bytes()); return err }); err != nil {
			finish(stateFailed, err)
			return
		}
	}
	var outs []fileState
	for _, n := range a.Out {
		st, err := b.log.state(b.opt.Dir, n.Path)
		if err != nil {
			finish(stateFailed, err)
			return
		}
		outs = append(outs, st)
	}
	for _, j := range jobs {
		for _, o := range j.allOutputs() {
			st, err := b.log.state(b.opt.Dir, o)
			if err != nil {
				finish(stateFailed, fmt.Errorf("output %s: %w", o, err))
				return
			}
			outs = append(outs, st)
		}
	}
	// The jobs' outputs were made durable when each job was recorded.
	if err := b.record(name, parts, outs, prev, paths(a.Out)); err != nil {
		finish(stateFailed, err)
		return
	}
	finish(stateBuilt, nil)
}

// jobRun is a job that must run, with what its record needs.
type jobRun struct {
	*job
	desc  string
	parts keyParts
	prev  *record
}

// jobEvent is the event of one of a's jobs.
func jobEvent(a *Action, j *job, desc string) Event {
	return Event{Kind: KindJob, Action: a.id, Desc: desc, Tool: a.Fanout.Steps[0].Tool.Name, Item: j.item, Outputs: j.allOutputs(), Slot: -1}
}

// checkJob returns the job to run, or nil when its record is up to date.
func (b *builder) checkJob(a *Action, j *job) (*jobRun, error) {
	desc := a.Desc + " " + j.item
	item, err := b.log.state(b.opt.Dir, j.item)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%s (named by %s) does not exist", j.item, a.Fanout.List.Path)
		}
		b.jobFailed(jobEvent(a, j, desc), err)
		return nil, err
	}
	parts := makeKey(a.Fanout.tools(), j.argvs, []fileState{item})
	name := j.name()
	ok, reasons := b.upToDate(name, parts)
	if ok {
		b.mu.Lock()
		b.res.JobsCached++
		b.mu.Unlock()
		e := jobEvent(a, j, desc)
		e.Outcome = UpToDate
		b.obs.Finished(e)
		return nil, nil
	}
	b.obs.OutOfDate(name, reasons)
	return &jobRun{job: j, desc: desc, parts: parts, prev: b.log.get(name)}, nil
}

// runJob runs one item's chain on the token it was given: its commands
// run one after the other, their output going to the slot's capture file.
func (b *builder) runJob(ctx context.Context, pool Pool, tok Token, a *Action, j *jobRun) error {
	e := jobEvent(a, j.job, j.desc)
	e.Slot, e.Start = tok.Slot(), time.Now()
	b.obs.Started(e)
	capture, err := b.capture(tok.Slot())
	for k, argv := range j.argvs {
		if err != nil {
			break
		}
		if b.opt.Verbose {
			b.obs.Message(ShellQuote(argv))
		}
		step := a.Fanout.Steps[k]
		c := Event{Kind: KindCommand, Action: a.id, Desc: j.desc + " (" + step.Tool.Name + ")", Tool: step.Tool.Name,
			Item: j.item, Argv: argv, Outputs: j.outputs[k], Slot: tok.Slot(), Start: time.Now()}
		b.obs.Started(c)
		b.removeStale(j.outputs[k]...)
		c.Usage, err = runCommand(ctx, b.opt.Dir, c.Desc, step.Tool, argv, j.outputs[k], capture)
		if err != nil {
			// The earlier steps' outputs are the intermediates of a chain
			// that failed: nothing records them, and they go.
			for _, outs := range j.outputs[:k] {
				for _, o := range outs {
					os.Remove(b.path(o))
				}
			}
		}
		b.log.forget(j.outputs[k]...)
		c.End = time.Now()
		c.Outcome, c.Err = Ran, err
		if err != nil {
			c.Outcome = Failed
		}
		if c.Usage != nil {
			if e.Usage == nil {
				e.Usage = &Usage{}
			}
			e.Usage.add(c.Usage)
		}
		b.obs.Finished(c)
	}
	var text []byte
	if err == nil {
		text = readTail(capture)
	}
	pool.Release(tok)
	e.End = time.Now()
	if err != nil {
		if ctx.Err() != nil {
			e.Outcome = NotRun
			b.obs.Finished(e)
			return errNotRun
		}
		b.jobFailed(e, err)
		return err
	}
	var outs []fileState
	for _, o := range j.allOutputs() {
		st, err := b.log.state(b.opt.Dir, o)
		if err != nil {
			b.jobFailed(e, err)
			return err
		}
		outs = append(outs, st)
	}
	if err := b.record(j.name(), j.parts, outs, j.prev, statePaths(outs)); err != nil {
		b.jobFailed(e, err)
		return err
	}
	b.mu.Lock()
	b.res.JobsRan++
	b.mu.Unlock()
	e.Outcome = Ran
	e.Output = withoutChatter(text, a.Fanout.tools()...)
	b.obs.Finished(e)
	return nil
}

// jobFailed counts a failed job, stops the build unless it keeps going,
// and tells the observer why the job failed.
func (b *builder) jobFailed(e Event, err error) {
	b.mu.Lock()
	b.res.JobsFailed++
	b.mu.Unlock()
	if !b.opt.KeepGoing {
		b.stopAll() // no new job or action starts after a failure
	}
	e.Outcome, e.Err = Failed, err
	b.obs.Finished(e)
}
