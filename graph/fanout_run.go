package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/jobs"
)

// fanoutLane+action id is the trace lane of a fan-out's overall span.
const fanoutLane = 1000

// readItems reads a fan-out's list as llvm-foreach reads one
// (filetable.ReadList). Unlike namedFiles it keeps repeats: every line is a
// job.
func readItems(dir, path string) ([]string, error) {
	return filetable.ReadListFile(basedir.Resolve(dir, path))
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

var errNotRun = errors.New("not run")

// doFanout brings a fan-out up to date: as a whole, when its record
// matches; else job by job, each a unit decided and run on its own.
func (b *builder) doFanout(ctx, stop context.Context, pool jobs.Pool, a *Action) {
	f := a.Fanout
	e := Event{Kind: KindFanout, Action: a.id, Desc: a.Desc, Tool: f.Steps[0].Tool.Name, Outputs: paths(a.Out), Slot: -1}
	if !b.mayStart(stop, a) {
		b.finish(a, e, NotRun, nil)
		return
	}
	items, err := readItems(b.opt.Dir, f.List.Path)
	if err != nil {
		b.finish(a, e, Failed, err)
		return
	}
	e.Jobs = len(items)
	parts, err := b.actionKey(a)
	if err != nil {
		b.finish(a, e, Failed, err)
		return
	}
	whole := &unit{name: a.Out[0].Path, parts: parts}
	if !b.mustRun(whole) {
		b.mu.Lock()
		b.res.JobsCached += len(items)
		b.mu.Unlock()
		b.planJobs(f, 0)
		b.finish(a, e, UpToDate, nil)
		return
	}
	b.planJobs(f, len(items))
	// The fan-out as a whole holds no token; its span is its jobs'.
	e.Start = time.Now()
	b.obs.Started(e)
	s, err := b.runJobs(ctx, stop, pool, a, whole, items)
	e.End = time.Now()
	b.finish(a, e, s, err)
}

// runJobs runs the jobs of a fan-out that must run, and when every one
// succeeded writes its output lists and records it whole. It returns the
// fan-out's outcome, and its own failure if any (a failed job's is the
// job's).
func (b *builder) runJobs(ctx, stop context.Context, pool jobs.Pool, a *Action, whole *unit, items []string) (Outcome, error) {
	f := a.Fanout
	if err := os.MkdirAll(b.path(f.Dir), 0o755); err != nil {
		return Failed, err
	}
	// Swept before any job runs, so that no sweep meets a running job's
	// isolation directory.
	b.prepareDir(f.Dir)
	// Workers take the items longest first (see readyQueue); each decides
	// its item (that only stats and hashes files) and, when the job must
	// run, takes a token for it alone. A worker that got a token starts
	// another when no other worker of this fan-out is free to take the
	// next item, up to the pool's size: so at most one goroutine per
	// token, plus one waiting, exists however long the list is. Under a
	// pool of known size, once that many workers run, a token given back
	// is taken again by the worker that gave it, without waking another
	// goroutine.
	f.compile()
	jobList := make([]*job, len(items))
	errs := make([]error, len(items))
	// A worker takes size items at a time: their jobs run on one token,
	// their last commands as one process (batch.go), when size > 1.
	size := b.batchSize(f, len(items))
	w := &workers{limit: pool.Size(), items: (len(items) + size - 1) / size}
	var fellBack atomic.Bool // a job's stand-in keeps the whole from being recorded
	order := b.longestFirst(f, items)
	w.work = func() {
		defer w.wg.Done()
		for {
			next, ok := w.take()
			if !ok {
				return
			}
			if size == 1 {
				i := order[next]
				jobList[i] = f.job(i, items[i])
				fb, err := b.doJob(ctx, stop, pool, a, jobList[i], w)
				if fb {
					fellBack.Store(true)
				}
				errs[i] = err
				continue
			}
			group := order[next*size : min(next*size+size, len(items))]
			js := make([]*job, len(group))
			for n, i := range group {
				jobList[i] = f.job(i, items[i])
				js[n] = jobList[i]
			}
			fbs, jerrs := b.doBatch(ctx, stop, pool, a, js, w)
			for n, i := range group {
				if fbs[n] {
					fellBack.Store(true)
				}
				errs[i] = jerrs[n]
			}
		}
	}
	w.run()
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
		return NotRun, nil
	case failed > 0:
		return Failed, nil
	case notRun > 0:
		return NotRun, nil
	case b.allFellBack(f, jobList):
		return Failed, fmt.Errorf("%s: every one of its %d modules fell back to SPIR-V, so nothing is compiled ahead of time (a device or an option the compiler refuses does that); aot_fallback: spirv-all accepts it", a.Desc, len(items))
	}
	return b.recordFanout(a, whole, jobList, fellBack.Load())
}

// doJob brings job j of the fan-out a up to date, on a worker of w: it
// decides whether the job must run, and if so runs it on a token of its
// own. It says whether a fallback saved the job, and returns the job's
// failure (errNotRun when it did not run because the build stopped).
func (b *builder) doJob(ctx, stop context.Context, pool jobs.Pool, a *Action, j *job, w *workers) (fellBack bool, err error) {
	if stop.Err() != nil {
		return false, errNotRun
	}
	u, err := b.decideJob(a, j)
	if u == nil {
		return false, err
	}
	tok, err := b.acquire(stop, u)
	if err != nil {
		return false, errNotRun
	}
	w.busy()
	ev, err := b.runUnit(ctx, tok, u)
	w.done() // before the token goes: who takes it starts no worker for this one
	b.release(pool, tok, u)
	return ev.Fallback != "", b.jobDone(ctx, ev, err)
}

// decideJob returns the unit of job j of the fan-out a when it must run;
// nil when it is up to date or failed before it could run (err), which
// the observer is told.
func (b *builder) decideJob(a *Action, j *job) (*unit, error) {
	u, err := b.jobUnit(a, j)
	if err != nil {
		b.jobFailed(Event{Kind: KindJob, Action: a.id, Desc: a.Desc + " " + j.item, Tool: a.Fanout.Steps[0].Tool.Name,
			Item: j.item, Outputs: j.allOutputs(), Slot: -1}, err)
		return nil, err
	}
	if !b.mustRun(u) {
		b.mu.Lock()
		b.res.JobsCached++
		b.mu.Unlock()
		ev := u.event
		ev.Outcome = UpToDate
		b.obs.Finished(ev)
		return nil, nil
	}
	return u, nil
}

// recordFanout writes the output lists of a fan-out whose every job
// succeeded, then records it whole, unless a job's fallback saved it: it
// is then built but not recorded, and that job runs again next time.
func (b *builder) recordFanout(a *Action, whole *unit, jobList []*job, fellBack bool) (Outcome, error) {
	for k, s := range a.Fanout.Steps {
		if s.Out == nil {
			continue
		}
		var list bytes.Buffer
		for _, j := range jobList {
			list.WriteString(j.outputs[k][0])
			list.WriteByte('\n')
		}
		b.log.forget(s.Out.List.Path)
		if err := atomicfile.Write(b.path(s.Out.List.Path), func(w io.Writer) error { _, err := w.Write(list.Bytes()); return err }); err != nil {
			return Failed, err
		}
	}
	var outs []fileState
	for _, n := range a.Out {
		st, err := b.log.state(b.opt.Dir, n.Path)
		if err != nil {
			return Failed, err
		}
		outs = append(outs, st)
	}
	for _, j := range jobList {
		for _, o := range j.recordedOutputs(b.log) {
			st, err := b.log.state(b.opt.Dir, o)
			if err != nil {
				return Failed, fmt.Errorf("output %s: %w", o, err)
			}
			outs = append(outs, st)
		}
	}
	if fellBack {
		return Ran, nil
	}
	// The jobs' outputs were made durable when each job was recorded.
	if err := b.record(whole.name, whole.parts, outs, whole.prev, paths(a.Out), nil); err != nil {
		return Failed, err
	}
	return Ran, nil
}

// longestFirst returns the order a fan-out's items are taken in: those
// whose job has no recorded time first, in list order, then the others,
// longest recorded time first (see readyQueue).
func (b *builder) longestFirst(f *Fanout, items []string) []int {
	order := make([]int, len(items))
	walls := make([]int64, len(items))
	timed := false
	for i, item := range items {
		order[i] = i
		if rec := b.log.get(f.jobName(i, item)); rec != nil && rec.wall > 0 {
			walls[i], timed = rec.wall, true
		}
	}
	if timed {
		slices.SortFunc(order, func(i, j int) int { return rank{wall: walls[i], index: i}.compare(rank{wall: walls[j], index: j}) })
	}
	return order
}

// jobDone counts a job that ran and tells the observer how it ended.
func (b *builder) jobDone(ctx context.Context, e Event, err error) error {
	switch {
	case err != nil && ctx.Err() != nil:
		e.Outcome = NotRun
		b.obs.Finished(e)
		return errNotRun
	case err != nil:
		b.jobFailed(e, err)
		return err
	case e.Outcome == Restored:
		b.obs.Finished(e)
		return nil
	}
	b.mu.Lock()
	b.res.JobsRan++
	b.mu.Unlock()
	e.Outcome = Ran
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

// workers are a fan-out's goroutines. Each takes the next item and runs
// its job; one that starts a job starts another worker when none is free
// and items are left, while fewer than limit (0: no limit) exist.
type workers struct {
	limit, items int
	work         func()
	wg           sync.WaitGroup

	mu      sync.Mutex
	next    int // the next item to take
	started int
	free    int // workers not running a job
}

// run starts the first worker and waits until every worker has ended.
func (w *workers) run() {
	w.started, w.free = 1, 1
	w.start()
	w.wg.Wait()
}

// start starts a worker that its caller has counted.
func (w *workers) start() {
	w.wg.Add(1)
	go w.work()
}

// take gives the calling worker the next item; when none is left, the
// worker ends.
func (w *workers) take() (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.next == w.items {
		w.free--
		return 0, false
	}
	w.next++
	return w.next - 1, true
}

// busy says the calling worker starts a job, and starts another worker
// when needed. The new worker is counted under the same lock, so that
// two workers that start jobs at once cannot both start one past limit.
func (w *workers) busy() {
	w.mu.Lock()
	w.free--
	more := w.free == 0 && w.next < w.items && (w.limit == 0 || w.started < w.limit)
	if more {
		w.started++
		w.free++
	}
	w.mu.Unlock()
	if more {
		w.start()
	}
}

// done says the calling worker's job ended; it is called before the job's
// token is given back, so that at most one worker more than the tokens
// held exists.
func (w *workers) done() {
	w.mu.Lock()
	w.free++
	w.mu.Unlock()
}
