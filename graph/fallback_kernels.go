package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// PartImage is one kernel's image after a per-kernel fallback
// (Fallback.Parts).
type PartImage struct {
	Name string // the kernels it holds, as Part.Name
	// Path is the image: the failed step's output of the part, or, for a
	// part that fails alone, the output of the step that stands in.
	Path   string
	Failed bool
}

// fallBackPerKernel saves a job whose step k failed with cause by kernel,
// when its fan-out has a per-kernel fallback for that step: the module's
// kernels run alone (isolateParts); when some but not all fail, those get
// the standing-in step's output as their own image and the others the
// failed step's, each moved beside the job's outputs, and Fallback.Parts
// writes the step's output as the list of them. It reports whether it
// saved the job; when it did not, the whole module may still fall back.
func (b *builder) fallBackPerKernel(ctx context.Context, u *unit, k int, cause error, e *Event, budget time.Duration) bool {
	f := u.fanout
	var ce *CommandError
	if f == nil || f.Fallback == nil || f.Fallback.Step != k || f.Fallback.Parts == nil || !errors.As(cause, &ce) {
		return false
	}
	iso := b.isolateParts(ctx, u, k, ce, budget)
	if iso == nil {
		return false
	}
	defer iso.remove()
	if ctx.Err() != nil || !iso.complete() {
		return false
	}
	to := u.outs[k][0]
	stem := strings.TrimSuffix(to, filepath.Ext(to))
	var images []PartImage
	var moved []string
	undo := func() {
		for _, p := range moved {
			os.Remove(b.path(p))
		}
	}
	for i, p := range iso.parts {
		j := f.jobIn(iso.dir, i, p.Path)
		failed := iso.results[i].err != nil
		src := j.outputs[k][0]
		if failed {
			src = j.outputs[f.Fallback.From][0]
		}
		dst := fmt.Sprintf("%s.k%d%s", stem, i, filepath.Ext(src))
		if err := os.Rename(b.path(src), b.path(dst)); err != nil {
			undo()
			return false
		}
		moved = append(moved, dst)
		images = append(images, PartImage{Name: p.Name, Path: dst, Failed: failed})
	}
	b.log.forget(to)
	wrote, err := f.Fallback.Parts(b.base(), to, images)
	if err != nil {
		undo()
		b.obs.Message(fmt.Sprintf("sycbuild: cannot fall back by kernel for %s: %v", to, err))
		return false
	}
	u.extra = append(moved, wrote...)
	b.log.forget(u.extra...)
	stay := len(iso.parts) - len(iso.culprit)
	e.Fallback = fmt.Sprintf("%s failed (%s); %d of its %d kernels fail alone (%s) and become SPIR-V images of their own, to be compiled when the program runs; %d %s ahead-of-time",
		u.tools[k].Name, ce.Status, len(iso.culprit), len(iso.parts), strings.Join(iso.culprit, ", "), stay, plural(stay, "stays", "stay"))
	b.mu.Lock()
	b.res.Fallbacks = append(b.res.Fallbacks, e.Item+": "+e.Fallback)
	b.mu.Unlock()
	b.obs.Message(fmt.Sprintf("sycbuild: warning: %s: %s\n%s", e.Desc, e.Fallback, indent(ce.Error())))
	return true
}

// allFellBack reports whether every job of a fan-out with a fallback fell
// back as a whole: its failed step's output is a copy of the output that
// stands in, for every item. That is no ahead-of-time build at all, which
// a wrong device or option causes; the fan-out fails then unless its
// Fallback accepts it (All). The outputs say it, so a later build that
// finds the jobs up to date says it again.
func (b *builder) allFellBack(f *Fanout, jobList []*job) bool {
	fb := f.Fallback
	if fb == nil || fb.All || len(jobList) == 0 {
		return false
	}
	for _, j := range jobList {
		if !sameFile(b.path(j.outputs[fb.Step][0]), b.path(j.outputs[fb.From][0])) {
			return false
		}
	}
	return true
}

// sameFile reports whether two files hold the same bytes (sizes first).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil || fa.Size() != fb.Size() {
		return false
	}
	da, errA := os.ReadFile(a)
	db, errB := os.ReadFile(b)
	return errA == nil && errB == nil && bytes.Equal(da, db)
}

// recordedOutputs lists the job's outputs with the files its record names
// besides them (a per-kernel fallback's images): the fan-out's whole
// depends on all of them.
func (j *job) recordedOutputs(l *buildLog) []string {
	out := j.allOutputs()
	r := l.get(j.name())
	if r == nil || len(r.outputs) <= len(out) {
		return out
	}
	declared := make(map[string]bool, len(out))
	for _, o := range out {
		declared[o] = true
	}
	for _, st := range r.outputs {
		if !declared[st.path] {
			out = append(out, st.path)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
