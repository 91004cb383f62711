package graph

import "github.com/sycbuild/sycbuild/filetable"

// The progress total is the number of actions and jobs to run. A fan-out's
// jobs are known only once its list exists; so that the total does not
// grow while lines are printed, a fan-out's jobs are counted as soon as
// the file that decides them is written (Fanout.Rows: the split's table,
// before the list is even extracted from it), before the line of the
// action that wrote it.

// pendingCounter is an observer that wants to know how many fan-outs
// have not had their jobs counted yet (Progress holds its plain lines
// until none has, so that every line shows the final total).
type pendingCounter interface{ countsPending(n int) }

func (obs Observers) countsPending(n int) {
	for _, o := range obs {
		if c, ok := o.(pendingCounter); ok {
			c.countsPending(n)
		}
	}
}

// startCounting tells the observer how many fan-outs are still to count.
func (b *builder) startCounting() {
	n := 0
	for _, a := range b.g.actions {
		if a.Fanout != nil {
			n++
		}
	}
	if c, ok := b.obs.(pendingCounter); ok && n > 0 {
		c.countsPending(n)
	}
}

// countRows plans the jobs of the fan-outs whose Rows or List action a
// has just written.
func (b *builder) countRows(a *Action) {
	for _, o := range a.Out {
		for _, fa := range b.g.actions {
			f := fa.Fanout
			if f == nil || (f.Rows != o && f.List != o) {
				continue
			}
			n, err := countItems(b.path(o.Path), o == f.Rows)
			if err == nil {
				b.planJobs(f, n)
			}
		}
	}
}

// planJobs makes n the number of f's jobs in the progress total, once
// counted: the count from its Rows, corrected by its list, or taken back
// (n = 0) when its jobs turn out not to run.
func (b *builder) planJobs(f *Fanout, n int) {
	b.mu.Lock()
	if b.planned == nil {
		b.planned = map[*Fanout]int{}
	}
	old, counted := b.planned[f]
	b.planned[f] = n
	b.mu.Unlock()
	if n != old {
		b.obs.Planned(n - old)
	}
	if c, ok := b.obs.(pendingCounter); ok && !counted {
		c.countsPending(-1)
	}
}

// countItems counts a file table's rows, or a list's lines.
func countItems(path string, table bool) (int, error) {
	if table {
		t, err := filetable.ReadFile(path)
		if err != nil {
			return 0, err
		}
		return len(t.Rows), nil
	}
	items, err := filetable.ReadListFile(path)
	return len(items), err
}
