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
	m.gen++
	if m.gen == 0 { // wrapped: stale stamps could match again
		clear(m.stamp)
		m.gen = 1
	}
	return m
}

func (p *markPool) put(m *marks) { p.pool.Put(m) }
