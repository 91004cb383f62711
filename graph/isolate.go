package graph

import (
	"context"
	"errors"
	"fmt"
	"github.com/sycbuild/sycbuild/jobs"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
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
// The parts and their outputs live in a directory of their own beside the
// job's outputs, removed afterwards.
func (b *builder) isolate(ctx context.Context, u *unit, k int, cause error) error {
	f := u.fanout
	var ce *CommandError
	if f == nil || f.Isolate == nil || !errors.As(cause, &ce) {
		return cause
	}
	item := u.event.Item
	dir := filepath.Join(f.Dir, fmt.Sprintf("%s%d", isolatePrefix, u.index))
	os.RemoveAll(b.path(dir))
	defer os.RemoveAll(b.path(dir))
	if err := os.MkdirAll(b.path(dir), 0o755); err != nil {
		return cause
	}
	parts, err := f.Isolate(b.base(), item, dir)
	if err != nil {
		ce.Isolation = "its module could not be split per kernel to find the culprit: " + err.Error()
		return ce
	}
	if len(parts) < 2 {
		return cause // one kernel: it is the culprit, and the command says which
	}
	out, err := jobs.CaptureFile()
	if err != nil {
		return cause
	}
	defer out.Close()
	var culprits []string
	var first *CommandError
	for i, p := range parts {
		j := f.jobIn(dir, i, p.Path)
		failed := false
		for s := 0; s <= k && !failed; {
			c, err := newCapture(out)
			if err != nil {
				return cause
			}
			m := f.pipeEnd(s)
			var cmds []command
			for ; s <= m; s++ {
				cmds = append(cmds, command{desc: u.event.Desc + " " + p.Name, tool: u.tools[s], argv: j.argvs[s]})
			}
			_, _, err = b.runCommand(ctx, cmds, j.outputs[m], c, nil)
			if ctx.Err() != nil {
				return cause
			}
			if err != nil {
				failed = true
				if first == nil {
					errors.As(err, &first)
				}
			}
		}
		if failed {
			culprits = append(culprits, p.Name)
		}
	}
	switch {
	case len(culprits) == 0:
		ce.Isolation = fmt.Sprintf("each of its %d kernels alone compiles: the failure needs them together", len(parts))
	default:
		ce.Isolation = fmt.Sprintf("%d of its %d kernels fail alone: %s", len(culprits), len(parts), strings.Join(culprits, ", "))
		if first != nil {
			ce.Isolation += "\n  the first alone:\n" + indent(first.Error())
		}
	}
	return ce
}

// indent indents every line of s by four spaces.
func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
