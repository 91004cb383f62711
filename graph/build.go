package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/jobs"
)

// Options say how Build runs a graph.
type Options struct {
	// Pool hands out job tokens; nil means one token per CPU.
	Pool jobs.Pool
	// KeepGoing runs everything that does not depend on a failed action
	// (without it, no new action or job starts after the first failure).
	KeepGoing bool
	// DryRun prints, to Script, the commands of the actions that would run
	// (a shell script: mkdir -p lines, then one command per line) and runs
	// nothing.
	DryRun bool
	Script io.Writer
	// Verbose sends each command line, as it starts, to the observer's
	// Message.
	Verbose bool
	// Batch is how many fan-out jobs run their last command as one
	// process where its tool can (Tool.Batch); 0 decides from the
	// number of jobs and job slots, 1 runs each alone.
	Batch int
	// Observer is told what the build does (see Observer); nil tells
	// nobody. Observers fans out to several.
	Observer Observer
	// StateDir holds the build log; "" caches nothing (everything runs).
	StateDir string
	// LockDir, if set, is the directory Build locks for its whole run (an
	// flock on the directory itself), so that two builds never write in it
	// at once, with or without a StateDir; "" locks StateDir's lock file.
	// Waiting for the lock ends when the build's context is cancelled.
	LockDir string
	// Self is how printed commands name the sycbuild executable (the dry
	// run's in-process and llvm-foreach lines, -v); "" is "sycbuild".
	Self string
	// Cache, if set, is a shared cache of the outputs of external
	// commands, asked for a unit's outputs before it runs (see cached.go).
	Cache cache.Cache
	// RemoteCache says that Cache includes a remote cache: -explain then
	// speaks of a "remote miss".
	RemoteCache bool
	// Memory, if positive, is the build's memory budget in bytes: a unit
	// of external commands starts only when its predicted peak fits
	// beside the running ones' (see memory.go).
	Memory int64
	// Dir is the directory relative paths are relative to, and the
	// external commands' working directory; "" is the current one.
	// In-process tools resolve paths against the process's working
	// directory, so with them Dir must be that directory.
	Dir string
	// Runner runs the external commands; nil runs them on this machine
	// (jobs.Local).
	Runner jobs.Runner

	// queued, if set, is told the number of units waiting for a job token
	// each time it changes (for tests, which wait for a queue to form).
	queued func(waiting int)
}

// Result counts what a build did.
type Result struct {
	Actions    int // actions in the graph
	Ran        int // actions run (in a dry run: that would run)
	UpToDate   int // actions whose recorded outputs were still valid
	Failed     int // actions that failed
	NotRun     int // actions not run because of a failure or an interrupt
	JobsRan    int // fan-out jobs run
	JobsCached int // fan-out jobs up to date
	JobsFailed int // fan-out jobs that failed
	// LocalHits and RemoteHits count the actions and jobs whose outputs
	// came from the shared cache (Options.Cache) instead of running.
	LocalHits, RemoteHits int
	// Fallbacks lists the fan-out jobs that survived a failed command
	// through their fan-out's Fallback: "item: what failed", in the order
	// they finished.
	Fallbacks []string
	Elapsed   time.Duration
}

// ErrFailed is returned (wrapped) when some action failed; the failures
// themselves have been printed.
var ErrFailed = errors.New("build failed")

// builder runs one Build.
type builder struct {
	g   *Graph
	opt Options
	log *buildLog
	obs Observer
	// workDir is opt.Dir made absolute once, the external commands'
	// working directory: a relative one would cost each command a Getwd
	// (exec.Cmd.Environ sets PWD to it).
	workDir string

	mu       sync.Mutex
	state    []Outcome // each action's, once it finished
	res      Result
	captures map[int]*os.File      // per job slot; see capture
	swept    map[string]*sync.Once // directories made and cleared of stale temporary files
	stopAll  func()                // stops the starting of new work
	warnOnce sync.Once             // the cache's warning
	pool     jobs.Pool             // the job tokens
	ready    *readyQueue           // hands them out, longest work first
	runner   jobs.Runner           // runs the external commands
	mem      *memBudget            // nil without a budget
	model    memModel              // recorded peaks, for the budget
	tools    atomic.Int32          // in-process tools running
	planned  map[*Fanout]int       // the jobs of each fan-out in the progress total (planned.go)
	cmds     *commandWords         // the last command words of actions and fan-outs
	// templateDiffs are what changed in each fan-out's template.
	templateDiffs map[*Action]string
}

// Build brings the graph's outputs up to date.
func (g *Graph) Build(ctx context.Context, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Observer == nil {
		opt.Observer = NopObserver{}
	}
	locked := opt.LockDir
	if locked == "" {
		locked = opt.StateDir
	}
	log, err := openLog(ctx, opt.StateDir, opt.LockDir, opt.DryRun, func() {
		opt.Observer.Message("sycbuild: waiting for another sycbuild that is using " + locked)
	})
	if err != nil {
		if ctx.Err() != nil {
			res := &Result{Actions: len(g.actions), NotRun: len(g.actions), Elapsed: time.Since(start)}
			opt.Observer.Summary(res)
			return res, err
		}
		return nil, fmt.Errorf("build log: %w", err)
	}
	workDir := opt.Dir
	if workDir != "" {
		if abs, err := filepath.Abs(workDir); err == nil {
			workDir = abs
		}
	}
	b := &builder{g: g, opt: opt, log: log, obs: opt.Observer, state: make([]Outcome, len(g.actions)), workDir: workDir,
		captures: map[int]*os.File{}, swept: map[string]*sync.Once{}, stopAll: func() {}, cmds: loadCommandWords(opt.StateDir)}
	defer b.closeCaptures()
	if b.runner = opt.Runner; b.runner == nil {
		b.runner = jobs.Local{}
	}
	if opt.Memory > 0 {
		b.mem = newMemBudget(opt.Memory)
	}
	// The recorded peaks predict each unit's memory, for the budget and
	// for the runner (which may hand it to a cluster's scheduler).
	for _, rec := range log.records {
		b.model.add(rec.tools, rec.inputSize(), rec.maxRSS)
	}
	b.res.Actions = len(g.actions)
	if opt.DryRun {
		err = b.dryRun()
	} else {
		err = b.run(ctx)
	}
	if !opt.DryRun {
		if cerr := b.cmds.save(); cerr != nil {
			b.obs.Message(fmt.Sprintf("sycbuild: warning: keeping the command lines for -explain: %v", cerr))
		}
	}
	if cerr := log.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("build log: %w", cerr)
	}
	b.res.Elapsed = time.Since(start)
	b.obs.Summary(&b.res)
	return &b.res, err
}

// run schedules every action as soon as the actions producing its inputs
// are done; each runs in its own goroutine, which blocks on the pool.
func (b *builder) run(ctx context.Context) error {
	pool := b.opt.Pool
	if pool == nil {
		pool = jobs.NewPool(defaultJobs())
		defer pool.Close()
	}
	b.pool = pool
	b.ready = newReadyQueue(ctx, pool, b.opt.queued)
	defer b.ready.close()
	// stop ends the starting of new work after a failure (without -k);
	// running commands finish. ctx (interrupts) kills them.
	stop, stopAll := context.WithCancel(ctx)
	defer stopAll()
	b.stopAll = stopAll
	b.obs.Planned(len(b.g.actions))
	b.startCounting()
	pending := make([]int, len(b.g.actions))
	done := make(chan *Action)
	running := 0
	launch := func(a *Action) {
		running++
		go func() {
			b.do(ctx, stop, pool, a)
			done <- a
		}()
	}
	for _, a := range b.g.actions {
		pending[a.id] = len(a.deps())
		if pending[a.id] == 0 {
			launch(a)
		}
	}
	for running > 0 {
		a := <-done
		running--
		if b.get(a) == Failed && !b.opt.KeepGoing {
			b.stopAll()
		}
		for _, u := range a.users {
			if pending[u.id]--; pending[u.id] == 0 {
				launch(u)
			}
		}
	}
	switch {
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case b.res.Failed > 0:
		return fmt.Errorf("%w: %d of %d actions failed", ErrFailed, b.res.Failed, b.res.Actions)
	}
	return nil
}

func (b *builder) get(a *Action) Outcome {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state[a.id]
}

func (b *builder) set(a *Action, s Outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state[a.id] = s
	switch s {
	case Ran:
		b.res.Ran++
	case UpToDate:
		b.res.UpToDate++
	case Failed:
		b.res.Failed++
	case NotRun:
		b.res.NotRun++
	}
}

// do brings one action up to date: it decides whether the action must
// run, and if so runs it on a token of the pool.
func (b *builder) do(ctx, stop context.Context, pool jobs.Pool, a *Action) {
	if a.Fanout != nil {
		b.doFanout(ctx, stop, pool, a)
		return
	}
	e := Event{Kind: KindAction, Action: a.id, Desc: a.Desc, Tool: a.Tool.Name, Argv: b.printed(a), Outputs: paths(a.Out), Slot: -1}
	if !b.mayStart(stop, a) {
		b.finish(a, e, NotRun, nil)
		return
	}
	u, err := b.actionUnit(a, e)
	if err != nil {
		b.finish(a, e, Failed, err)
		return
	}
	if !b.mustRun(u) {
		b.finish(a, e, UpToDate, nil)
		return
	}
	tok, err := b.acquire(stop, u)
	if err != nil {
		b.finish(a, e, NotRun, nil)
		return
	}
	e, err = b.runUnit(ctx, tok, u)
	b.release(pool, tok, u)
	switch {
	case err != nil && ctx.Err() != nil:
		b.finish(a, e, NotRun, nil)
	case err != nil:
		b.finish(a, e, Failed, err)
	case e.Outcome == Restored:
		b.finish(a, e, Restored, nil)
	default:
		b.finish(a, e, Ran, nil)
	}
}

// mayStart says whether an action may start: no action it depends on
// failed or did not run, and the build goes on.
func (b *builder) mayStart(stop context.Context, a *Action) bool {
	for _, d := range a.deps() {
		if s := b.get(d); s == Failed || s == NotRun {
			return false
		}
	}
	return stop.Err() == nil
}

// finish sets an action's state and tells the observer: e's outcome is s,
// and err, if not nil, is why it failed.
func (b *builder) finish(a *Action, e Event, s Outcome, err error) {
	b.set(a, s)
	e.Outcome = s
	e.Err = err
	if s == Ran || s == Restored {
		b.countRows(a)
	}
	b.obs.Finished(e)
}

func (b *builder) self() string {
	if b.opt.Self == "" {
		return "sycbuild"
	}
	return b.opt.Self
}

// printed is an action's command line as printed: an in-process tool's
// Argv[0] is the sycbuild executable as the user can run it.
func (b *builder) printed(a *Action) []string {
	if a.Main == nil {
		return a.Argv
	}
	return append([]string{b.self()}, a.Argv[1:]...)
}

// path resolves a graph path against Options.Dir.
func (b *builder) path(p string) string { return basedir.Resolve(b.opt.Dir, p) }

func defaultJobs() int { return max(runtime.NumCPU(), 1) }
