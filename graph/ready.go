package graph

import (
	"cmp"
	"container/heap"
	"context"
	"sync"

	"github.com/sycbuild/sycbuild/jobs"
)

// Ready work starts longest first. A build's makespan is bounded below by
// its longest job; started last, a long job runs on alone after every
// other has ended, while started first, the short ones fill the slots
// beside it. So when tokens are scarce, the units waiting for one get them
// in this order:
//
//   - first those with no recorded time (new work, or a module that
//     changed enough to be renamed: likely the large ones), in graph
//     order;
//   - then the others, the longest recorded time first (the wall time of
//     its external commands when it last ran, from the build log), ties
//     in graph order.
//
// A fan-out's own items are taken in that order too (longestFirst), so
// its workers, which hold one item each, offer the queue its longest
// jobs. In-process tools record no time: they count as unknown, and so
// go first, which suits them (a split feeds the fan-outs after it).

// rank orders units waiting for a token (see above).
type rank struct {
	wall   int64 // the recorded wall time, ns; 0 when none is recorded
	action int   // the unit's action (a job's fan-out's)
	index  int   // a job's item index; 0 for an action
}

// compare is negative when r gets a token before s, positive when after.
func (r rank) compare(s rank) int {
	if (r.wall == 0) != (s.wall == 0) {
		if r.wall == 0 {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(s.wall, r.wall), cmp.Compare(r.action, s.action), cmp.Compare(r.index, s.index))
}

// unitRank is a unit's rank: its record's time, when the log has one.
func unitRank(u *unit) rank {
	r := rank{action: u.event.Action}
	if u.fanout != nil {
		r.index = u.index
	}
	if u.prev != nil {
		r.wall = u.prev.wall
	}
	return r
}

// readyQueue hands the pool's tokens to the units waiting for one, best
// rank first. A unit that finds no one waiting and a token free takes it
// at once; the others wait in the queue, and one goroutine, the
// dispatcher, takes each token from the pool as it comes free and gives
// it to the best waiting unit then (not the first that came: units become
// ready in goroutines of their own, in no set order).
type readyQueue struct {
	pool jobs.Pool
	// queued, if set, is told the number of units waiting each time it
	// changes (Options.queued, for tests).
	queued func(waiting int)
	mu     sync.Mutex
	wait   waiters
	wake   chan struct{} // the dispatcher's: a unit is waiting
	stop   func()        // ends the dispatcher
	done   chan struct{} // closed when it ended
}

// waiter is a unit waiting for a token.
type waiter struct {
	rank  rank
	seq   int             // arrival, to keep equal ranks first come, first served
	got   chan jobs.Token // its token, once given
	index int             // in the heap; -1 once given its token
}

// newReadyQueue returns a queue over pool, whose dispatcher runs until ctx
// ends or close.
func newReadyQueue(ctx context.Context, pool jobs.Pool, queued func(int)) *readyQueue {
	ctx, stop := context.WithCancel(ctx)
	q := &readyQueue{pool: pool, queued: queued, wake: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go func() {
		defer close(q.done)
		q.dispatch(ctx)
	}()
	return q
}

// close ends the dispatcher and waits for it: it holds no token after.
func (q *readyQueue) close() {
	q.stop()
	<-q.done
}

// acquire returns a token for a unit of rank r, or ctx's error when ctx
// ends first.
func (q *readyQueue) acquire(ctx context.Context, r rank) (jobs.Token, error) {
	q.mu.Lock()
	if q.wait.Len() == 0 {
		if tok, ok := q.pool.TryAcquire(); ok {
			q.mu.Unlock()
			return tok, nil
		}
	}
	w := &waiter{rank: r, seq: q.wait.seq, got: make(chan jobs.Token, 1)}
	q.wait.seq++
	heap.Push(&q.wait, w)
	q.changed()
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default: // the dispatcher is awake already
	}
	select {
	case tok := <-w.got:
		return tok, nil
	case <-ctx.Done():
	}
	q.mu.Lock()
	given := w.index < 0
	if !given {
		heap.Remove(&q.wait, w.index)
		q.changed()
	}
	q.mu.Unlock()
	if given {
		q.pool.Release(<-w.got)
	}
	return jobs.Token{}, ctx.Err()
}

// changed tells queued the number of units waiting; q.mu is held.
func (q *readyQueue) changed() {
	if q.queued != nil {
		q.queued(q.wait.Len())
	}
}

// dispatch gives each token the pool frees to the best unit waiting then.
func (q *readyQueue) dispatch(ctx context.Context) {
	for {
		q.mu.Lock()
		idle := q.wait.Len() == 0
		q.mu.Unlock()
		if idle {
			select {
			case <-q.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		tok, err := q.pool.Acquire(ctx)
		if err != nil {
			return
		}
		q.mu.Lock()
		if q.wait.Len() == 0 {
			// Its unit stopped waiting meanwhile.
			q.mu.Unlock()
			q.pool.Release(tok)
			continue
		}
		w := heap.Pop(&q.wait).(*waiter)
		q.changed()
		w.got <- tok
		q.mu.Unlock()
	}
}

// waiters is a heap of waiting units, best first.
type waiters struct {
	list []*waiter
	seq  int
}

func (h waiters) Len() int { return len(h.list) }
func (h waiters) Less(i, j int) bool {
	a, b := h.list[i], h.list[j]
	return cmp.Or(a.rank.compare(b.rank), cmp.Compare(a.seq, b.seq)) < 0
}
func (h waiters) Swap(i, j int) {
	h.list[i], h.list[j] = h.list[j], h.list[i]
	h.list[i].index, h.list[j].index = i, j
}
func (h *waiters) Push(x any) {
	w := x.(*waiter)
	w.index = len(h.list)
	h.list = append(h.list, w)
}
func (h *waiters) Pop() any {
	w := h.list[len(h.list)-1]
	h.list = h.list[:len(h.list)-1]
	w.index = -1
	return w
}
