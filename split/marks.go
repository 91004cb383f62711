package split

import "sync"

// marks is a set of entity indices that is emptied in O(1): an index is in
// the set when its stamp equals the current generation. Sets come from a
// pool, so that making thousands of modules does not allocate and clear a
// module-sized array for each.
type marks struct {
	gen   uint32
	stamp []uint32
}

func (m *marks) has(i int32) bool { return m.stamp[i] == m.gen }
func (m *marks) add(i int32)      { m.stamp[i] = m.gen }

// markPool hands out empty marks sized for one module.
type markPool struct {
	n    int
	pool sync.Pool
}

func (p *markPool) get() *marks {
	m, _ := p.pool.Get().(*marks)
	if m == nil {
		return &marks{gen: 1, stamp: make([]uint32, p.n)}
	}
	m.next()
	return m
}

// next empties the set.
func (m *marks) next() {
	m.gen++
	if m.gen == 0 { // wrapped: stale stamps could match again
		clear(m.stamp)
		m.gen = 1
	}
}

func (p *markPool) put(m *marks) { p.pool.Put(m) }

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

// tallyPool hands out empty tallies of n entries.
type tallyPool struct {
	n    int
	pool sync.Pool
}

func (p *tallyPool) get() *tally {
	t, _ := p.pool.Get().(*tally)
	if t == nil {
		return &tally{marks: marks{gen: 1, stamp: make([]uint32, p.n)}, n: make([]int32, p.n)}
	}
	t.next()
	return t
}

func (p *tallyPool) put(t *tally) { p.pool.Put(t) }

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
