package split

import "sync"

// marks is a set of entity indices that is emptied in O(1): an index is in
// the set when its stamp equals the current generation.
type marks struct {
	gen   uint32
	stamp []uint32
}

func (m *marks) has(i int32) bool { return m.stamp[i] == m.gen }
func (m *marks) add(i int32)      { m.stamp[i] = m.gen }

func newMarks(n int) *marks { return &marks{gen: 1, stamp: make([]uint32, n)} }

// next empties the set.
func (m *marks) next() {
	m.gen++
	if m.gen == 0 { // wrapped: stale stamps could match again
		clear(m.stamp)
		m.gen = 1
	}
}

// tally is a map from small integers to counts that is emptied in O(1)
// like marks: an absent index counts 0.
type tally struct {
	marks
	n []int32
}

func (t *tally) get(i int32) int32 {
	if t.has(i) {
		return t.n[i]
	}
	return 0
}

func (t *tally) set(i, v int32) {
	t.add(i)
	t.n[i] = v
}

func newTally(n int) *tally { return &tally{marks: *newMarks(n), n: make([]int32, n)} }

// stampPool hands out empty sets of n entries (marks, tallies): fresh ones
// from fresh, used ones emptied in O(1) by next. Sets come from a pool, so
// that making thousands of modules does not allocate and clear a
// module-sized array for each.
type stampPool[T interface{ next() }] struct {
	n     int
	fresh func(n int) T
	pool  sync.Pool
}

func (p *stampPool[T]) get() T {
	if v, ok := p.pool.Get().(T); ok {
		v.next()
		return v
	}
	return p.fresh(p.n)
}

func (p *stampPool[T]) put(v T) { p.pool.Put(v) }

// bufPool recycles index lists (their arrays) between parts.
type bufPool struct{ pool sync.Pool }

// get returns an empty list.
func (p *bufPool) get() *[]int32 {
	if b, ok := p.pool.Get().(*[]int32); ok {
		*b = (*b)[:0]
		return b
	}
	return new([]int32)
}

func (p *bufPool) put(b *[]int32) { p.pool.Put(b) }
