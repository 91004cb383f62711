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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

func numCPU() int { return runtime.NumCPU() }

// fanoutLane+action id is the trace lane of a fan-out's overall span.
const fanoutLane = 1000

// readItems reads a fan-out's list: one item per line, blank lines skipped.
// Unlike namedFiles it keeps repeats: every line is a job.
func readItems(dir, path string) ([]string, error) {
	full := path
	if dir != "" && !filepath.IsAbs(path) {
		full = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	var items []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSuffix(line, "\r"); line != "" {
			items = append(items, line)
		}
	}
	return items, nil
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
	items, err := readItems(b.opt.Dir, f.List.Path)
	if err != nil {
		b.fail(a, err)
		return
	}
	parts, err := b.fanoutKey(a)
	if err != nil {
		b.fail(a, err)
		return
	}
	name := a.Out[0].Path
	prev := b.log.get(name)
	if ok, reasons := b.upToDate(name, parts); ok {
		b.mu.Lock()
		b.res.JobsCached += len(items)
		b.mu.Unlock()
		b.set(a, stateUpToDate)
		b.prog.finished(a.Desc, false)
		return
	} else if b.opt.Explain {
		b.explain(name, reasons)
	}
	b.prog.addTotal(len(items))
	t0 := time.Now()
	defer func() {
		// The fan-out as a whole, on a lane of its own (it holds no token).
		b.opt.Trace.add(a.Desc, "fan-out", fanoutLane+a.id, t0, time.Now(), map[string]string{"jobs": strconv.Itoa(len(items))})
	}()
	// The jobs' up-to-date checks run here, one after the other (they
	// only stat and hash files); a job that must run gets a token first
	// and then a goroutine, so at most one goroutine per token exists
	// however long the list is.
	if err := os.MkdirAll(b.path(f.Dir), 0o755); err != nil {
		b.fail(a, err)
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
		b.set(a, stateNotRun)
		return
	case failed > 0:
		b.set(a, stateFailed)
		b.prog.finished(a.Desc, true)
		return
	case notRun > 0:
		b.set(a, stateNotRun)
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
			b.fail(a, err)
			return
		}
	}
	var outs []fileState
	for _, n := range a.Out {
		st, err := b.log.state(b.opt.Dir, n.Path)
		if err != nil {
			b.fail(a, err)
			return
		}
		outs = append(outs, st)
	}
	for _, j := range jobs {
		for _, o := range j.allOutputs() {
			st, err := b.log.state(b.opt.Dir, o)
			if err != nil {
				b.fail(a, fmt.Errorf("output %s: %w", o, err))
				return
			}
			outs = append(outs, st)
		}
	}
	// The jobs' outputs were made durable when each job was recorded.
	if err := b.record(name, parts, outs, prev, paths(a.Out)); err != nil {
		b.fail(a, err)
		return
	}
	b.set(a, stateBuilt)
	b.prog.finished(a.Desc, true)
}

// jobRun is a job that must run, with what its record needs.
type jobRun struct {
	*job
	desc  string
	parts keyParts
	prev  *record
}

// checkJob returns the job to run, or nil when its record is up to date.
func (b *builder) checkJob(a *Action, j *job) (*jobRun, error) {
	desc := a.Desc + " " + j.item
	item, err := b.log.state(b.opt.Dir, j.item)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%s (named by %s) does not exist", j.item, a.Fanout.List.Path)
		}
		b.jobFailed(desc, err)
		return nil, err
	}
	parts := makeKey(a.Fanout.tools(), j.argvs, []fileState{item})
	name := j.name()
	if ok, reasons := b.upToDate(name, parts); ok {
		b.mu.Lock()
		b.res.JobsCached++
		b.mu.Unlock()
		b.prog.finished(desc, false)
		return nil, nil
	} else if b.opt.Explain {
		b.explain(name, reasons)
	}
	return &jobRun{job: j, desc: desc, parts: parts, prev: b.log.get(name)}, nil
}

// runJob runs one item's chain on the token it was given: its commands
// run one after the other, their output going to the slot's capture file.
func (b *builder) runJob(ctx context.Context, pool Pool, tok Token, a *Action, j *jobRun) error {
	b.prog.started(j.desc)
	t0 := time.Now()
	capture, err := b.capture(tok.Slot())
	for k, argv := range j.argvs {
		if err != nil {
			break
		}
		if b.opt.Verbose {
			b.prog.Printf("%s", ShellQuote(argv))
		}
		s0 := time.Now()
		step := a.Fanout.Steps[k]
		b.removeStale(j.outputs[k]...)
		err = runCommand(ctx, b.opt.Dir, j.desc+" ("+step.Tool.Name+")", step.Tool, argv, j.outputs[k], capture)
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
		b.opt.Trace.add(step.Tool.Name+" "+j.item, step.Tool.Name, tok.Slot(), s0, time.Now(), nil)
	}
	var text []byte
	if err == nil {
		text = readTail(capture)
	}
	pool.Release(tok)
	b.opt.Trace.add(j.desc, "job", tok.Slot(), t0, time.Now(), map[string]string{"item": j.item})
	if err != nil {
		if ctx.Err() != nil {
			return errNotRun
		}
		b.jobFailed(j.desc, err)
		return err
	}
	var outs []fileState
	for _, o := range j.allOutputs() {
		st, err := b.log.state(b.opt.Dir, o)
		if err != nil {
			b.jobFailed(j.desc, err)
			return err
		}
		outs = append(outs, st)
	}
	if err := b.record(j.name(), j.parts, outs, j.prev, statePaths(outs)); err != nil {
		b.jobFailed(j.desc, err)
		return err
	}
	b.mu.Lock()
	b.res.JobsRan++
	b.mu.Unlock()
	b.prog.finished(j.desc, true)
	if text = withoutChatter(text, a.Fanout.tools()...); len(text) > 0 {
		b.prog.Printf("%s", text)
	}
	return nil
}

func (b *builder) jobFailed(desc string, err error) {
	b.mu.Lock()
	b.res.JobsFailed++
	b.mu.Unlock()
	if !b.opt.KeepGoing {
		b.stopAll() // no new job or action starts after a failure
	}
	b.prog.finished(desc, true)
	var ce *CommandError
	if errors.As(err, &ce) {
		b.prog.Printf("%s", ce.Error())
	} else {
		b.prog.Printf("FAILED: %s: %v", desc, err)
	}
}
