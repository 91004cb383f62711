package graph

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// TestFanoutWorkers: a fan-out runs as many jobs at once as the pool has
// tokens, whether the pool's size is known or not. With a known size its
// workers take back the tokens they give back: after the first jobs, no
// Acquire waits (one goroutine deciding the jobs in turn would wait for
// every one of them).
func TestFanoutWorkers(t *testing.T) {
	const n, items = 3, 12
	for _, unsized := range []bool{false, true} {
		var names []string
		for i := range items {
			names = append(names, fmt.Sprintf("src/m%d.txt", i))
		}
		tb := listBuild(t, names...)
		// Each job waits (up to 10 s) until n jobs have started, so the
		// first n can only finish when they run together.
		f := &Fanout{
			List: tb.g.File("mods.list", List),
			Dir:  "out",
			Steps: []*Step{{Tool: shTool, Args: []string{"-c", fmt.Sprintf(
				`touch "started/$(basename "$1")"; i=0; while [ $(ls started | wc -l) -lt %d ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; echo $i > "$2"`, n),
				"sh", "mod.src", "mod.out"},
				In: []StepInput{{"mod.src", -1}}, Out: &StepOutput{"mod.out", "out", tb.g.File("out/out.list", List)}}},
		}
		if err := tb.g.Add(&Action{Desc: "[t] wait", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List}}); err != nil {
			t.Fatal(err)
		}
		tb.write("started/.keep", "")
		pool := &jobstest.CountingPool{Pool: jobs.NewPool(n), Unsized: unsized}
		opt := tb.opts()
		opt.Pool = pool
		if res := tb.build(opt); res.JobsRan != items {
			t.Fatalf("unsized %v: %d jobs ran", unsized, res.JobsRan)
		}
		for i := range items {
			if got := strings.TrimSpace(tb.read(fmt.Sprintf("out/mod_%d.out", i))); got == "1000" {
				t.Errorf("unsized %v: job %d waited 10 s for %d jobs to run at once", unsized, i, n)
			}
		}
		_, peak, _, waited := pool.Counts()
		if peak != n {
			t.Errorf("unsized %v: %d tokens held at once, want %d", unsized, peak, n)
		}
		if !unsized && waited != 0 {
			t.Errorf("%d Acquire calls waited under a pool of known size", waited)
		}
	}
}

// TestWorkersBound: under a pool of unknown size the workers are at most
// one more than the jobs running at once, and at least as many.
func TestWorkersBound(t *testing.T) {
	const tokens = 4
	free := make(chan struct{}, tokens)
	for range tokens {
		free <- struct{}{}
	}
	var running, peakRunning atomic.Int32
	w := &workers{items: 200}
	w.work = func() {
		defer w.wg.Done()
		for {
			if _, ok := w.take(); !ok {
				return
			}
			<-free
			w.busy()
			r := running.Add(1)
			for p := peakRunning.Load(); r > p && !peakRunning.CompareAndSwap(p, r); p = peakRunning.Load() {
			}
			time.Sleep(100 * time.Microsecond)
			running.Add(-1)
			w.done()
			free <- struct{}{}
		}
	}
	w.run()
	if w.started > tokens+1 || int(peakRunning.Load()) != tokens {
		t.Errorf("%d workers started, %d jobs ran at once; want at most %d and %d", w.started, peakRunning.Load(), tokens+1, tokens)
	}
	if w.next != w.items || w.free != 0 {
		t.Errorf("after the end: next %d of %d, %d workers counted free", w.next, w.items, w.free)
	}
}
