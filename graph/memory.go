package graph

import (
	"context"
	"math/bits"
	"strings"
	"sync"

	"github.com/sycbuild/sycbuild/jobs"
)

// Memory-aware scheduling. Each external command's peak memory (wait4's
// maxrss) is recorded with its unit in the build log. Before a unit that
// runs external commands takes a job token, it reserves its predicted peak
// from the build's memory budget (Options.Memory): it starts only when the
// predictions of the running units plus its own fit. A unit predicted to
// need more than the whole budget runs alone; nothing ever waits for
// memory while nothing runs, so the build cannot deadlock.
//
// The prediction is the same tools' history: of the units recorded with
// the same tool identities, the largest peak among those whose inputs'
// size is nearest (in the same power of two, else the nearest such class
// recorded), scaled up when this unit's inputs are larger. Without
// history it is the largest Tool.Memory of the unit's tools, else
// defaultMemory.
//
// A recorded peak is an upper bound: wait4's maxrss of a command is at
// least this process's own peak when the command started (Linux records,
// at the child's execve, the peak of the address space it leaves, which
// Go's vfork shares with this process). The builder gives back what its
// in-process tools freed as soon as they return (see execute), but the
// peak they reached stays, so the commands a build runs after an
// in-process split of a large module are recorded as needing at least the
// split's peak; a later build that runs them again without the split
// records their own.

// defaultMemory is a unit's predicted peak when neither history nor its
// tools say anything.
const defaultMemory = 512 << 20

// memSample is a recorded peak.
type memSample struct {
	size   int64 // the unit's inputs' total size
	maxRSS int64
}

// memModel holds the recorded peaks per tool set, by size class (the bit
// length of the inputs' size: one class per power of two), keeping each
// class's largest peak. A prediction looks at one class, or the nearest
// recorded one: its cost does not grow with the number of units recorded.
type memModel struct {
	mu      sync.Mutex
	classes map[string]*[65]memSample
}

func toolsKey(tools []string) string { return strings.Join(tools, "\x00") }

func sizeClass(size int64) int { return bits.Len64(uint64(max(size, 0))) }

func (m *memModel) add(tools []string, size, maxRSS int64) {
	if maxRSS <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.classes == nil {
		m.classes = map[string]*[65]memSample{}
	}
	k := toolsKey(tools)
	c := m.classes[k]
	if c == nil {
		c = new([65]memSample)
		m.classes[k] = c
	}
	if s := &c[sizeClass(size)]; maxRSS > s.maxRSS {
		*s = memSample{size, maxRSS}
	}
}

// predict returns a unit's predicted peak memory; known says that its
// tools' history or their Tool.Memory predicts it, not defaultMemory.
func (m *memModel) predict(u *unit) (peak int64, known bool) {
	var size int64
	for _, in := range u.parts.inputs {
		size += in.size
	}
	var best memSample
	m.mu.Lock()
	if c := m.classes[toolsKey(u.parts.tools)]; c != nil {
		want := sizeClass(size)
		for d := 0; d < len(c) && best.maxRSS == 0; d++ {
			for _, i := range []int{want - d, want + d} {
				if i >= 0 && i < len(c) && c[i].maxRSS > best.maxRSS {
					best = c[i]
				}
			}
		}
	}
	m.mu.Unlock()
	if best.maxRSS > 0 {
		if size > best.size && best.size > 0 {
			return int64(float64(best.maxRSS) * float64(size) / float64(best.size)), true
		}
		return best.maxRSS, true
	}
	var guess int64
	for _, t := range u.tools {
		guess = max(guess, t.Memory)
	}
	if guess == 0 {
		return defaultMemory, false
	}
	return guess, true
}

// memBudget is the memory that running units may use at once.
type memBudget struct {
	total int64
	mu    sync.Mutex
	used  int64
	units int           // units holding a reservation
	wake  chan struct{} // closed and replaced when a reservation ends
}

func newMemBudget(total int64) *memBudget {
	return &memBudget{total: total, wake: make(chan struct{})}
}

// reserve blocks until need fits beside the running units' reservations
// (or nothing runs), or ctx is done. It returns what was reserved.
func (m *memBudget) reserve(ctx context.Context, need int64) (int64, error) {
	for {
		m.mu.Lock()
		if m.units == 0 || m.used+need <= m.total {
			m.used += need
			m.units++
			m.mu.Unlock()
			return need, nil
		}
		wake := m.wake
		m.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return 0, context.Cause(ctx)
		}
	}
}

// release ends a reservation.
// tryReserve takes need bytes of the budget if they fit now, and never
// waits (the parts of an isolation run beside their job only when they
// fit).
func (m *memBudget) tryReserve(need int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+need > m.total {
		return false
	}
	m.used += need
	m.units++
	return true
}

func (m *memBudget) release(n int64) {
	m.mu.Lock()
	m.used -= n
	m.units--
	close(m.wake)
	m.wake = make(chan struct{})
	m.mu.Unlock()
}

// acquire gets what a unit needs to run: its memory reservation (external
// commands only, under a budget), then a job token, in its turn (see
// readyQueue). release gives both
// back and learns the unit's peak. The unit's runner is told its memory:
// what it reserved, or without a budget its predicted peak when its
// tools' history or their Tool.Memory predicts one.
func (b *builder) acquire(ctx context.Context, u *unit) (jobs.Token, error) {
	if u.main == nil {
		need, known := b.model.predict(u)
		if b.mem != nil {
			n, err := b.mem.reserve(ctx, need)
			if err != nil {
				return jobs.Token{}, err
			}
			u.reserved, u.memory = n, n
		} else if known {
			u.memory = need
		}
	}
	tok, err := b.ready.acquire(ctx, unitRank(u))
	if err != nil && u.reserved > 0 {
		b.mem.release(u.reserved)
		u.reserved = 0
	}
	return tok, err
}

func (b *builder) release(pool jobs.Pool, tok jobs.Token, u *unit) {
	pool.Release(tok)
	if u.reserved > 0 {
		b.mem.release(u.reserved)
		u.reserved = 0
	}
}
