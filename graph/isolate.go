package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/jobs"
)

// When a command of a fan-out job fails, the fan-out may save the job
// (Fanout.Fallback: an earlier step's output stands in for the failed
// step's) or, failing that, find out which kernels of the job's module
// cause the failure (Fanout.Isolate: the module is split per kernel and
// the chain, up to the failed step, runs on each part).

// fallBack saves a job whose step k failed with cause, when its fan-out
// has a fallback for that step, and says so loudly. It reports whether it
// did.
func (b *builder) fallBack(u *unit, k int, cause error, e *Event) bool {
	f := u.fanout
	if f == nil || f.Fallback == nil || f.Fallback.Step != k {
		return false
	}
	from, to := u.outs[f.Fallback.From][0], u.outs[k][0]
	err := atomicfile.Write(b.path(to), func(w io.Writer) error {
		in, err := os.Open(b.path(from))
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(w, in)
		return err
	})
	b.log.forget(to)
	if err != nil {
		b.obs.Message(fmt.Sprintf("sycbuild: cannot fall back to %s for %s: %v", from, to, err))
		return false
	}
	status := cause.Error()
	var ce *CommandError
	if errors.As(cause, &ce) {
		status = ce.Status
	}
	e.Fallback = fmt.Sprintf("%s failed (%s); %s stands in", u.tools[k].Name, status, from)
	b.mu.Lock()
	b.res.Fallbacks = append(b.res.Fallbacks, e.Item+": "+e.Fallback)
	b.mu.Unlock()
	b.obs.Message(fmt.Sprintf("sycbuild: warning: %s: %s, to be compiled when the program runs\n%s", e.Desc, e.Fallback, indent(cause.Error())))
	return true
}

// isolatePrefix begins the name of a job's isolation directory; one that a
// killed build left is removed by the next (prepareDir).
const isolatePrefix = ".isolate_"

// isolate runs the chain of a job whose step k failed on each kernel of
// its module alone, and returns cause with the kernels that fail named.
func (b *builder) isolate(ctx context.Context, u *unit, k int, cause error, budget time.Duration) error {
	var ce *CommandError
	if !errors.As(cause, &ce) {
		return cause
	}
	iso := b.isolateParts(ctx, u, k, ce, budget)
	if iso == nil {
		return cause
	}
	defer iso.remove()
	return ce
}

// isolation is what running a failed job's chain on each kernel of its
// module found. The parts and their outputs live in a directory of their
// own beside the job's outputs, until remove.
type isolation struct {
	b       *builder
	dir     string
	parts   []Part
	results []partResult
	tried   int
	culprit []string // the names of the parts that fail alone
}

func (iso *isolation) remove() { os.RemoveAll(iso.b.path(iso.dir)) }

// isolateParts runs the chain of a job whose step k failed with ce on
// each kernel of its module alone, and says what it found in
// ce.Isolation. It returns nil when it did not isolate (ce unchanged).
//
// Isolation runs only where it can tell something, and costs about one
// more run of the chain: the parts run in parallel on the job's token and
// on the pool's free ones, for at most budget, the time the job's chain
// took to fail (at least minIsolation):
//   - not after a timeout: each kernel would wait for it again;
//   - the first and the last kernel go first: when both alone fail as the
//     whole module did (the same status and output, file names aside),
//     the cause is no kernel's but the command's (a device, an option): it
//     says so and stops;
//   - when the budget runs out, it says how far it got.
func (b *builder) isolateParts(ctx context.Context, u *unit, k int, ce *CommandError, budget time.Duration) *isolation {
	f := u.fanout
	if f == nil || f.Isolate == nil || ce.TimedOut {
		return nil
	}
	iso := &isolation{b: b, dir: filepath.Join(f.Dir, fmt.Sprintf("%s%d", isolatePrefix, u.index))}
	iso.remove()
	if err := os.MkdirAll(b.path(iso.dir), 0o755); err != nil {
		return nil
	}
	parts, err := f.Isolate(b.base(), u.event.Item, iso.dir)
	if err != nil {
		ce.Isolation = "its module could not be split per kernel to find the culprit: " + err.Error()
		return iso
	}
	if len(parts) < 2 {
		iso.remove()
		return nil // one kernel: it is the culprit, and the command says which
	}
	iso.parts = parts
	budget = max(budget, minIsolation)
	ictx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	iso.results = make([]partResult, len(parts))
	b.runParts(ictx, u, k, iso.dir, parts, []int{0, len(parts) - 1}, iso.results)
	if ctx.Err() != nil {
		return iso
	}
	if r0, r1 := iso.results[0], iso.results[len(parts)-1]; sameFailure(ce, r0.err) && sameFailure(ce, r1.err) {
		ce.Isolation = fmt.Sprintf("not by kernel: its first and its last kernel alone (%s; %s) fail as the whole module does, so the cause is the command (its device names or options), not a kernel", parts[0].Name, parts[len(parts)-1].Name)
		iso.tried = -1 // nothing to learn per kernel
		return iso
	}
	var rest []int
	for i := 1; i < len(parts)-1; i++ {
		rest = append(rest, i)
	}
	b.runParts(ictx, u, k, iso.dir, parts, rest, iso.results)
	if ctx.Err() != nil {
		return iso
	}
	var first *CommandError
	for i, r := range iso.results {
		if !r.done {
			continue
		}
		iso.tried++
		if r.err != nil {
			iso.culprit = append(iso.culprit, parts[i].Name)
			if first == nil {
				first = r.err
			}
		}
	}
	switch {
	case iso.tried < len(parts):
		ce.Isolation = fmt.Sprintf("stopped after %d of its %d kernels at its limit of %v (the time the module's chain took to fail, %v at least)", iso.tried, len(parts), budget.Round(time.Millisecond), minIsolation)
		if len(iso.culprit) > 0 {
			ce.Isolation += "; fail alone: " + strings.Join(iso.culprit, ", ")
		}
	case len(iso.culprit) == 0:
		ce.Isolation = fmt.Sprintf("each of its %d kernels alone compiles: the failure needs them together", len(parts))
	default:
		ce.Isolation = fmt.Sprintf("%d of its %d kernels fail alone: %s", len(iso.culprit), len(parts), strings.Join(iso.culprit, ", "))
	}
	if first != nil {
		ce.Isolation += "\n  the first alone:\n" + indent(first.Error())
	}
	return iso
}

// complete says whether every part ran, and some but not all failed: the
// kernels that fail alone are then known, and the others compile.
func (iso *isolation) complete() bool {
	return iso.tried == len(iso.parts) && len(iso.culprit) > 0 && len(iso.culprit) < len(iso.parts)
}

// minIsolation is the least time isolation may take: a chain that failed
// at once (a small module) still gets its kernels tried, also on a loaded
// machine, where starting each part's commands takes longer than the
// module's own compile did.
var minIsolation = 10 * time.Second

// partResult is what one part's run of the chain gave: done says it ran
// to its end (or its failure) before the budget ran out.
type partResult struct {
	done bool
	err  *CommandError
}

// runParts runs the chain, up to step k, on the parts of u's module at
// the indices given, in parallel: on the job's own token and on every
// token of the pool that is free at once, as far as the memory budget
// allows at once (returned when the parts are done). Each result goes to
// results[i].
func (b *builder) runParts(ctx context.Context, u *unit, k int, dir string, parts []Part, indices []int, results []partResult) {
	var next atomic.Int64
	worker := func() {
		out, err := jobs.CaptureFile()
		if err != nil {
			return
		}
		defer out.Close()
		for {
			n := int(next.Add(1)) - 1
			if n >= len(indices) || ctx.Err() != nil {
				return
			}
			i := indices[n]
			err, ok := b.runPart(ctx, u, k, u.fanout.jobIn(dir, i, parts[i].Path), parts[i], out)
			if !ok {
				return
			}
			results[i].done = true
			errors.As(err, &results[i].err)
			if err != nil && results[i].err == nil {
				results[i].err = &CommandError{Desc: u.event.Desc + " " + parts[i].Name, Status: "cannot run: " + err.Error()}
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < len(indices) && b.pool != nil; w++ {
		// Each worker beside the job's own needs a token and, under a
		// memory budget, as much memory as the job reserved (a part
		// needs no more than its whole module).
		need := u.reserved
		if b.mem != nil && need > 0 && !b.mem.tryReserve(need) {
			break
		}
		t, ok := b.pool.TryAcquire()
		if !ok {
			if b.mem != nil && need > 0 {
				b.mem.release(need)
			}
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.pool.Release(t)
			if b.mem != nil && need > 0 {
				defer b.mem.release(need)
			}
			worker()
		}()
	}
	worker()
	wg.Wait()
}

// runPart runs the steps 0..k of job j, part p of u's module, and returns
// the failure, if any; ok is false when ctx ended first.
func (b *builder) runPart(ctx context.Context, u *unit, k int, j *job, p Part, out *os.File) (err error, ok bool) {
	f := u.fanout
	for s := 0; s <= k; {
		c, cerr := newCapture(out)
		if cerr != nil {
			return cerr, true
		}
		m := f.pipeEnd(s)
		var cmds []command
		for ; s <= m; s++ {
			cmds = append(cmds, command{desc: u.event.Desc + " " + p.Name, tool: u.tools[s], argv: j.argvs[s]})
		}
		_, _, _, err = b.runCommand(ctx, cmds, j.outputs[m], jobs.Request{Memory: u.memory}, c, nil)
		if ctx.Err() != nil {
			return nil, false
		}
		if err != nil {
			return err, true
		}
	}
	return nil, true
}

// sameFailure reports whether a part's failure is the whole module's: the
// same status and output once the part's file names in it are the
// module's.
func sameFailure(whole, part *CommandError) bool {
	if part == nil || whole.Status != part.Status || len(whole.Argv) != len(part.Argv) {
		return false
	}
	out := string(part.Output)
	for i, a := range part.Argv {
		if a != whole.Argv[i] && a != "" {
			out = strings.ReplaceAll(out, a, whole.Argv[i])
		}
	}
	return out == string(whole.Output)
}

// indent indents every line of s by four spaces.
func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
