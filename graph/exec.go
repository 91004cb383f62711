package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/jobs"
)

// runUnit runs a unit that must run, on the token it was given, and
// records it: its outputs come from the shared cache when it has them
// (the event's Outcome is then Restored), else its commands run one after the other, their output going to
// the slot's capture file. It returns the unit's finished event (Outcome
// not yet set) and why it failed; on failure no output of the unit is
// left, not even an earlier command's of a chain.
func (b *builder) runUnit(ctx context.Context, tok jobs.Token, u *unit) (Event, error) {
	e, ca, text, hit := b.startUnit(ctx, tok, u)
	var err error
	if !hit {
		text, err = b.execute(ctx, tok, u, &e)
	}
	e.End = time.Now()
	if err != nil {
		return e, err
	}
	return b.settle(ctx, u, e, text, ca, hit)
}

// startUnit tells the observer a unit starts on tok, and restores its
// outputs from the shared cache when it has them (hit): text is then what
// its commands printed. ca is the unit's cache action, nil without a
// cache.
func (b *builder) startUnit(ctx context.Context, tok jobs.Token, u *unit) (e Event, ca *cache.Action, text []byte, hit bool) {
	e = u.event
	e.Slot, e.Start = tok.Slot(), time.Now()
	b.obs.Started(e)
	if b.opt.Cache != nil {
		ca = cacheAction(u)
	}
	if ca != nil {
		text, e.Cache, hit = b.restore(ctx, u, ca)
	}
	return e, ca, text, hit
}

// settle records a unit whose commands succeeded (or whose outputs were
// restored: hit) and stores it in the shared cache; text is what its
// commands printed.
func (b *builder) settle(ctx context.Context, u *unit, e Event, text []byte, ca *cache.Action, hit bool) (Event, error) {
	if e.Fallback != "" {
		// A stand-in is not the action's result: neither the build log
		// nor the cache keeps it, so the next build runs the failed
		// command again (its failure may have been passing: an OOM kill)
		// and says so again while it fails. Nor is it a compile to share:
		// another checkout or machine compiles it itself (and a
		// per-kernel fallback's images are files the cache's action does
		// not name).
		b.log.forget(u.outputs()...)
		e.Output = withoutChatter(text, u.tools...)
		return e, nil
	}
	outs, err := b.outputStates(u)
	if err == nil {
		err = b.record(u.name, u.parts, outs, u.prev, statePaths(outs), e.Usage)
	}
	if err != nil {
		return e, err
	}
	if ca != nil && !hit {
		b.store(ctx, ca, text)
	}
	if hit {
		e.Outcome = Restored
	}
	e.Output = withoutChatter(text, u.tools...)
	return e, nil
}

// execute runs a unit's commands and returns what they printed.
func (b *builder) execute(ctx context.Context, tok jobs.Token, u *unit, e *Event) ([]byte, error) {
	b.prepareOutputs(u)
	if u.main != nil {
		return b.runInProcess(u, e)
	}
	return b.executeSteps(ctx, tok, u, e, 0, len(u.argvs))
}

// prepareOutputs makes the directories of a unit's outputs (prepareDir).
func (b *builder) prepareOutputs(u *unit) {
	for _, o := range u.outputs() {
		b.prepareDir(filepath.Dir(o))
	}
}

// executeSteps runs commands from..to-1 of a unit's chain (their output
// directories made) and returns what they printed. A failure removes the
// outputs of the chain's commands before from too.
func (b *builder) executeSteps(ctx context.Context, tok jobs.Token, u *unit, e *Event, from, to int) ([]byte, error) {
	out, err := b.capture(tok.Slot())
	if err != nil {
		return nil, err
	}
	start := time.Now()
	for k := from; k < to; {
		// Steps k..m run at once when the earlier ones pipe into the next.
		m := k
		if u.fanout != nil {
			m = u.fanout.pipeEnd(k)
		}
		cmds := make([]command, 0, m-k+1)
		evs := make([]Event, 0, m-k+1)
		for s := k; s <= m; s++ {
			if b.opt.Verbose {
				b.obs.Message(ShellQuote(u.argvs[s]))
			}
			c := Event{Kind: KindCommand, Action: e.Action, Desc: e.Desc, Tool: u.tools[s].Name, Item: e.Item,
				Argv: u.argvs[s], Outputs: u.outs[s], Slot: e.Slot, Start: time.Now()}
			if u.steps {
				c.Desc += " (" + u.tools[s].Name + ")"
				b.obs.Started(c)
			}
			// What the log saw of the outputs goes; runCommand gives it their
			// new size, time and hash when they are written.
			b.log.forget(u.outs[s]...)
			cmds = append(cmds, command{desc: c.Desc, tool: u.tools[s], argv: u.argvs[s]})
			evs = append(evs, c)
		}
		usages, where, f, err := b.runCommand(ctx, cmds, u.outs[m], jobs.Request{Memory: u.memory}, out, b.log.wrote)
		if where != (Where{}) {
			e.Where = where // a chain's last node that is not this one
		}
		failed := k + f // the step whose failure err is
		for i, c := range evs {
			if cu := usages[i]; cu != nil {
				if e.Usage == nil {
					e.Usage = &Usage{}
				}
				e.Usage.Add(cu)
			}
			if u.steps {
				c.Usage, c.Where = usages[i], where
				c.End, c.Outcome = time.Now(), Ran
				if err != nil && k+i == failed {
					c.Outcome, c.Err = Failed, err
				}
				b.obs.Finished(c)
			}
		}
		if err != nil && ctx.Err() == nil && !nodeFailed(err) && (b.fallBackPerKernel(ctx, u, failed, err, e, time.Since(start)) || b.fallBack(u, failed, err, e)) {
			k = m + 1
			continue
		}
		if err != nil {
			// The earlier commands' outputs are the intermediates of a
			// chain that failed: nothing records them, and they go.
			for _, outs := range u.outs[:k] {
				for _, o := range outs {
					os.Remove(b.path(o))
				}
				b.log.forget(outs...)
			}
			if ctx.Err() == nil && !nodeFailed(err) {
				err = b.isolate(ctx, u, failed, err, time.Since(start))
			}
			return nil, err
		}
		k = m + 1
	}
	return out.tail(), nil
}

// nodeFailed says that err is a command's whose node failed under it
// twice: the command is not at fault, so nothing stands in for its output
// and its module is not split to find the kernels at fault.
func nodeFailed(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce) && ce.NodeFailed
}

// runInProcess runs a unit's in-process tool and returns what it printed.
func (b *builder) runInProcess(u *unit, e *Event) ([]byte, error) {
	if b.opt.Verbose {
		b.obs.Message(ShellQuote(e.Argv))
	}
	out := newTail()
	l := &lender{pool: b.pool}
	b.tools.Add(1)
	err := runMain(e.Desc, Env{Dir: b.opt.Dir, Tokens: l}, u.argvs[0], u.main, out)
	if b.tools.Add(-1) == 0 {
		// What the tools freed goes back to the system now, for the
		// compilers that follow: the collector would otherwise keep a
		// split's module until its next cycle, which a build that only
		// coordinates commands may not reach for minutes.
		debug.FreeOSMemory()
	}
	l.returnAll()
	b.log.forgetAll() // it may write files the graph does not name
	return out.Bytes(), err
}

// outputStates hashes a unit's outputs after it ran, with the files its
// named outputs name.
func (b *builder) outputStates(u *unit) ([]fileState, error) {
	var out []fileState
	seen := map[string]bool{}
	add := func(p string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		st, err := b.log.state(b.opt.Dir, p)
		if err != nil {
			return fmt.Errorf("output %s: %w", p, err)
		}
		out = append(out, st)
		return nil
	}
	for _, o := range append(u.outputs(), u.extra...) {
		if err := add(o); err != nil {
			return nil, err
		}
		if kind, ok := u.named[o]; ok {
			named, err := namedFiles(b.opt.Dir, o, kind)
			if err != nil {
				return nil, err
			}
			for _, p := range named {
				if err := add(p); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// record logs a finished action or job (with what its commands cost, when
// they ran) and removes files that its previous
// run wrote but this one did not (a split that now has fewer modules),
// when they still hold what that run wrote. The record reaches the disk
// only after the files durable names (see buildLog.put): the log never
// says a file is built that a power loss could take back.
func (b *builder) record(name string, kp keyParts, outs []fileState, prev *record, durable []string, usage *Usage) error {
	full := make([]string, len(durable))
	for i, p := range durable {
		full[i] = b.path(p)
	}
	rec := &record{name: name, key: kp.key, tools: kp.tools, cmd: kp.cmd, inputs: kp.inputs, outputs: outs}
	if kp.keep {
		b.cmds.set(name, kp.words)
	}
	if usage != nil {
		rec.maxRSS, rec.wall = usage.MaxRSS, int64(usage.Wall)
		b.model.add(rec.tools, rec.inputSize(), rec.maxRSS)
	}
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

// prepareDir makes an output directory, and, once per build, removes what
// killed builds left in it: the isolation directories of fan-out jobs
// (.isolate_N, see isolate) and temporary files (see
// atomicfile.RemoveStale). The directory is read once for both.
func (b *builder) prepareDir(dir string) {
	b.mu.Lock()
	once := b.swept[dir]
	if once == nil {
		once = new(sync.Once)
		b.swept[dir] = once
	}
	b.mu.Unlock()
	// Every caller waits for the first: an action must not write into a
	// directory another is still making.
	once.Do(func() {
		os.MkdirAll(b.path(dir), 0o755)
		f, err := os.Open(b.path(dir))
		if err != nil {
			return
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			if strings.HasPrefix(n, isolatePrefix) {
				os.RemoveAll(filepath.Join(b.path(dir), n))
			}
		}
		atomicfile.RemoveStaleOf(b.path(dir), names)
	})
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

// lender lends tokens of the build's pool to an in-process tool's workers
// (Env.Tokens).
type lender struct {
	pool jobs.Pool
	mu   sync.Mutex
	held []jobs.Token
}

func (l *lender) TryAcquire() bool {
	if l.pool == nil {
		return false
	}
	t, ok := l.pool.TryAcquire()
	if ok {
		l.mu.Lock()
		l.held = append(l.held, t)
		l.mu.Unlock()
	}
	return ok
}

func (l *lender) Release() {
	l.mu.Lock()
	t := l.held[len(l.held)-1]
	l.held = l.held[:len(l.held)-1]
	l.mu.Unlock()
	l.pool.Release(t)
}

// returnAll gives back what a tool did not (a tool that panicked).
func (l *lender) returnAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, t := range l.held {
		l.pool.Release(t)
	}
	l.held = nil
}
