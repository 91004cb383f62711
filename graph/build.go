package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Options say how Build runs a graph.
type Options struct {
	// Pool hands out job tokens; nil means one token per CPU.
	Pool Pool
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
	// Dir is the directory relative paths are relative to, and the
	// external commands' working directory; "" is the current one.
	// In-process tools resolve paths against the process's working
	// directory, so with them Dir must be that directory.
	Dir string
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
	Elapsed    time.Duration
}

// ErrFailed is returned (wrapped) when some action failed; the failures
// themselves have been printed.
var ErrFailed = errors.New("build failed")

type state int

const (
	statePending state = iota
	stateBuilt
	stateUpToDate
	stateFailed
	stateNotRun // a dependency failed, or the build stopped
)

// builder runs one Build.
type builder struct {
	g   *Graph
	opt Options
	log *buildLog
	obs Observer

	mu       sync.Mutex
	state    []state
	res      Result
	captures map[int]*os.File // per job slot; see capture
	swept    map[string]bool  // directories cleared of stale temporary files
	stopAll  func()           // stops the starting of new work
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
	b := &builder{g: g, opt: opt, log: log, obs: opt.Observer, state: make([]state, len(g.actions)),
		captures: map[int]*os.File{}, swept: map[string]bool{}, stopAll: func() {}}
	defer b.closeCaptures()
	b.res.Actions = len(g.actions)
	if opt.DryRun {
		err = b.dryRun()
	} else {
		err = b.run(ctx)
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
		pool = NewPool(defaultJobs())
		defer pool.Close()
	}
	// stop ends the starting of new work after a failure (without -k);
	// running commands finish. ctx (interrupts) kills them.
	stop, stopAll := context.WithCancel(ctx)
	defer stopAll()
	b.stopAll = stopAll
	b.obs.Planned(len(b.g.actions))
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
		if b.get(a) == stateFailed && !b.opt.KeepGoing {
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

func (b *builder) get(a *Action) state {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state[a.id]
}

func (b *builder) set(a *Action, s state) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state[a.id] = s
	switch s {
	case stateBuilt:
		b.res.Ran++
	case stateUpToDate:
		b.res.UpToDate++
	case stateFailed:
		b.res.Failed++
	case stateNotRun:
		b.res.NotRun++
	}
}

// do brings one action up to date.
func (b *builder) do(ctx, stop context.Context, pool Pool, a *Action) {
	if a.Fanout != nil {
		b.doFanout(ctx, stop, pool, a)
		return
	}
	e := Event{Kind: KindAction, Action: a.id, Desc: a.Desc, Tool: a.Tool.Name, Argv: b.printed(a), Outputs: paths(a.Out), Slot: -1}
	if !b.mayStart(stop, a) {
		b.finish(a, e, stateNotRun, nil)
		return
	}
	parts, err := b.actionKey(a)
	if err != nil {
		b.finish(a, e, stateFailed, err)
		return
	}
	name := a.Out[0].Path
	prev := b.log.get(name)
	ok, reasons := b.upToDate(name, parts)
	if ok {
		b.finish(a, e, stateUpToDate, nil)
		return
	}
	b.obs.OutOfDate(name, reasons)
	tok, err := pool.Acquire(stop)
	if err != nil {
		b.finish(a, e, stateNotRun, nil)
		return
	}
	e.Slot, e.Start = tok.Slot(), time.Now()
	b.obs.Started(e)
	if b.opt.Verbose {
		b.obs.Message(ShellQuote(e.Argv))
	}
	var text []byte
	for _, o := range a.Out {
		os.MkdirAll(filepath.Dir(b.path(o.Path)), 0o755)
	}
	b.removeStale(paths(a.Out)...)
	if a.Main != nil {
		out := newTail()
		err = runMain(a.Desc, a.Argv, a.Main, out)
		text = out.Bytes()
		b.log.forget() // it may write files the graph does not name
	} else {
		var capture *os.File
		if capture, err = b.capture(tok.Slot()); err == nil {
			e.Usage, err = runCommand(ctx, b.opt.Dir, a.Desc, a.Tool, a.Argv, paths(a.Out), capture)
			text = readTail(capture)
		}
		b.log.forget(paths(a.Out)...)
	}
	pool.Release(tok)
	e.End = time.Now()
	if err != nil {
		if ctx.Err() != nil {
			b.finish(a, e, stateNotRun, nil)
			return
		}
		b.finish(a, e, stateFailed, err)
		return
	}
	outs, err := b.outputStates(a)
	if err != nil {
		b.finish(a, e, stateFailed, err)
		return
	}
	if err := b.record(name, parts, outs, prev, statePaths(outs)); err != nil {
		b.finish(a, e, stateFailed, err)
		return
	}
	e.Output = withoutChatter(text, a.Tool)
	b.finish(a, e, stateBuilt, nil)
}

// mayStart says whether an action may start: no action it depends on
// failed or did not run, and the build goes on.
func (b *builder) mayStart(stop context.Context, a *Action) bool {
	for _, d := range a.deps() {
		if s := b.get(d); s == stateFailed || s == stateNotRun {
			return false
		}
	}
	return stop.Err() == nil
}

// finish sets an action's state and tells the observer: e's outcome is s,
// and err, if not nil, is why it failed.
func (b *builder) finish(a *Action, e Event, s state, err error) {
	b.set(a, s)
	e.Outcome = outcomes[s]
	e.Err = err
	b.obs.Finished(e)
}

var outcomes = [...]Outcome{statePending: NotRun, stateBuilt: Ran, stateUpToDate: UpToDate, stateFailed: Failed, stateNotRun: NotRun}

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
func (b *builder) path(p string) string {
	if b.opt.Dir != "" && !filepath.IsAbs(p) {
		return filepath.Join(b.opt.Dir, p)
	}
	return p
}

// keyParts are the parts of an action's key, kept apart so that a change
// can be explained.
type keyParts struct {
	key    string
	tools  []string
	cmd    string
	inputs []fileState
}

func makeKey(tools []*Tool, argvs [][]string, inputs []fileState) keyParts {
	kp := keyParts{inputs: inputs}
	for _, t := range tools {
		kp.tools = append(kp.tools, hashStrings(t.identity()))
	}
	var cmd []string
	for _, argv := range argvs {
		cmd = append(cmd, argv...)
		cmd = append(cmd, "\x00")
	}
	kp.cmd = hashStrings(cmd...)
	all := append(append([]string{}, kp.tools...), kp.cmd)
	for _, in := range inputs {
		all = append(all, in.path, in.hash)
	}
	kp.key = hashStrings(all...)
	return kp
}

// actionKey hashes an action's inputs (and the files its lists and tables
// name) into its key.
func (b *builder) actionKey(a *Action) (keyParts, error) {
	inputs, err := b.inputStates(a.In)
	if err != nil {
		return keyParts{}, err
	}
	return makeKey([]*Tool{a.Tool}, [][]string{a.Argv}, inputs), nil
}

// inputStates returns the states of files and of the files they name.
func (b *builder) inputStates(nodes []*Node) ([]fileState, error) {
	var out []fileState
	seen := map[string]bool{}
	add := func(p, via string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		st, err := b.log.state(b.opt.Dir, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if via != "" {
					return fmt.Errorf("%s (named by %s) does not exist", p, via)
				}
				return fmt.Errorf("input %s does not exist", p)
			}
			return err
		}
		out = append(out, st)
		return nil
	}
	for _, n := range nodes {
		if err := add(n.Path, ""); err != nil {
			return nil, err
		}
		if n.Kind == Plain {
			continue
		}
		named, err := namedFiles(b.opt.Dir, n.Path, n.Kind)
		if err != nil {
			return nil, err
		}
		for _, p := range named {
			if err := add(p, n.Path); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// outputStates hashes an action's outputs after it ran (with the files its
// outputs name when it owns them).
func (b *builder) outputStates(a *Action) ([]fileState, error) {
	var out []fileState
	seen := map[string]bool{}
	for _, n := range a.Out {
		names := []string{n.Path}
		if a.OwnsNamed && n.Kind != Plain {
			named, err := namedFiles(b.opt.Dir, n.Path, n.Kind)
			if err != nil {
				return nil, err
			}
			names = append(names, named...)
		}
		for _, p := range names {
			if seen[p] {
				continue
			}
			seen[p] = true
			st, err := b.log.state(b.opt.Dir, p)
			if err != nil {
				return nil, fmt.Errorf("output %s: %w", p, err)
			}
			out = append(out, st)
		}
	}
	return out, nil
}

// upToDate says whether name's record matches parts and its outputs are
// still the ones recorded; if not, it says why.
func (b *builder) upToDate(name string, kp keyParts) (bool, []string) {
	rec := b.log.get(name)
	if rec == nil {
		return false, []string{"no record of an earlier build"}
	}
	if rec.key != kp.key {
		return false, diffParts(rec, kp)
	}
	for _, o := range rec.outputs {
		st, err := b.log.state(b.opt.Dir, o.path)
		switch {
		case err != nil:
			return false, []string{"output " + o.path + " is missing"}
		case st.hash != o.hash:
			return false, []string{"output " + o.path + " changed since it was built"}
		}
	}
	return true, nil
}

// diffParts says which parts of a key changed.
func diffParts(rec *record, kp keyParts) []string {
	var why []string
	if fmt.Sprint(rec.tools) != fmt.Sprint(kp.tools) {
		why = append(why, "the tool changed (its path or version)")
	}
	if rec.cmd != kp.cmd {
		why = append(why, "the command line changed")
	}
	old := map[string]string{}
	for _, in := range rec.inputs {
		old[in.path] = in.hash
	}
	cur := map[string]bool{}
	for _, in := range kp.inputs {
		cur[in.path] = true
		switch h, ok := old[in.path]; {
		case !ok:
			why = append(why, "input "+in.path+" is new")
		case h != in.hash:
			why = append(why, "input "+in.path+" changed")
		}
	}
	for _, in := range rec.inputs {
		if !cur[in.path] {
			why = append(why, "input "+in.path+" is no longer used")
		}
	}
	if len(why) == 0 {
		why = append(why, "the inputs were reordered")
	}
	return why
}

// record logs a finished action or job and removes files that its previous
// run wrote but this one did not (a split that now has fewer modules),
// when they still hold what that run wrote. The record reaches the disk
// only after the files durable names (see buildLog.put): the log never
// says a file is built that a power loss could take back.
func (b *builder) record(name string, kp keyParts, outs []fileState, prev *record, durable []string) error {
	full := make([]string, len(durable))
	for i, p := range durable {
		full[i] = b.path(p)
	}
	rec := &record{name: name, key: kp.key, tools: kp.tools, cmd: kp.cmd, inputs: kp.inputs, outputs: outs}
	if err := b.log.put(rec, full); err != nil {
		return fmt.Errorf("build log: %w", err)
	}
	if prev == nil {
		return nil
	}
	now := map[string]bool{}
	for _, o := range outs {
		now[o.path] = true
	}
	for _, o := range prev.outputs {
		if now[o.path] {
			continue
		}
		if st, err := b.log.state(b.opt.Dir, o.path); err == nil && st.hash == o.hash {
			os.Remove(b.path(o.path))
			b.log.forget(o.path)
		}
	}
	return nil
}

// removeStale removes, once per build and directory, the temporary files
// that killed builds left beside the given outputs (see
// atomicfile.RemoveStale).
func (b *builder) removeStale(outs ...string) {
	for _, o := range outs {
		dir := filepath.Dir(b.path(o))
		b.mu.Lock()
		done := b.swept[dir]
		b.swept[dir] = true
		b.mu.Unlock()
		if !done {
			atomicfile.RemoveStale(dir)
		}
	}
}

func statePaths(states []fileState) []string {
	out := make([]string, len(states))
	for i, s := range states {
		out[i] = s.path
	}
	return out
}

func paths(ns []*Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Path
	}
	return out
}

func defaultJobs() int { return max(numCPU(), 1) }
