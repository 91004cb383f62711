package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// barrier holds the actions of peakConcurrency until the pool's size is
// reached and every other action waits for a token.
type barrier struct {
	jobs.Pool
	want     int // the pool's size
	mu       sync.Mutex
	cond     sync.Cond
	actions  int // actions not finished
	waiting  int // actions waiting for a token
	running  int // actions in their Main
	peak     int // the most running at once
	released bool
}

// queued is told the number of actions waiting for a token.
func (b *barrier) queued(n int) {
	b.mu.Lock()
	b.waiting = n
	b.cond.Broadcast()
	b.mu.Unlock()
}

// run is an action's Main: it counts itself running and waits for the
// barrier to open, which it does once want actions run and the others all
// wait for a token (none is on its way to one); the actions after that run
// through.
func (b *barrier) run() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running++
	b.peak = max(b.peak, b.running)
	b.cond.Broadcast()
	for !b.released && (b.running < b.want || b.running+b.waiting < b.actions) {
		b.cond.Wait()
	}
	b.released = true
	b.cond.Broadcast()
	b.running--
	b.actions--
}

// open opens the barrier whatever runs.
func (b *barrier) open() {
	b.mu.Lock()
	b.released = true
	b.cond.Broadcast()
	b.mu.Unlock()
}

// peakConcurrency builds n in-process actions on a pool of want tokens
// and returns the most that ran at once. The first actions to get a token
// hold it until want of them run and every other action is blocked
// waiting for one: so want run at once, and an action given a token too
// many is counted running, unless it got it only after every other action
// had queued (they are all launched together, so it queues first). No
// action sleeps; a pool that never lets want actions run would hold the
// barrier shut, and after a minute (only a guard against hanging the
// test) it opens, and the peak tells.
func peakConcurrency(t *testing.T, pool jobs.Pool, n, want int) int {
	t.Helper()
	dir := t.TempDir()
	b := &barrier{Pool: pool, want: want, actions: n}
	b.cond.L = &b.mu
	guard := time.AfterFunc(time.Minute, b.open)
	defer guard.Stop()
	g := New()
	for i := range n {
		name := filepath.Join(dir, fmt.Sprintf("o%d", i))
		g.Add(&Action{Desc: name, Tool: shTool, Argv: []string{"sycbuild", "w"}, Out: []*Node{g.File(name, Plain)},
			Main: func(Env, []string, Stdio) int {
				b.run()
				os.WriteFile(name, nil, 0o644)
				return 0
			}})
	}
	if _, err := g.Build(context.Background(), Options{Pool: b, queued: b.queued}); err != nil {
		t.Fatal(err)
	}
	return b.peak
}

// TestPoolBound: a pool of n tokens runs n actions at once, never n+1.
func TestPoolBound(t *testing.T) {
	for _, n := range []int{1, 3, 5} {
		if peak := peakConcurrency(t, jobs.NewPool(n), 12, n); peak != n {
			t.Errorf("%d actions ran at once with -j %d", peak, n)
		}
	}
}
