package llvmir

import "math/bits"

// bcLocalTab finds a body's named values by name while it is parsed. It
// is an open-addressed table of FNV-1a hashes, emptied for the next body
// by a new generation rather than cleared: with a Go map, finding and
// adding names took a tenth of the writer's time.
type bcLocalTab struct {
	slots []bcLocalSlot // a power of two of them, at most 3/4 of this generation's used
	shift uint          // 32 - log2(len(slots)): a hash's top bits index the slots
	used  int
	gen   uint32 // a slot of another generation is empty
}

type bcLocalSlot struct {
	gen, hash uint32
	l         *bcLocal
}

// reset empties the table.
func (t *bcLocalTab) reset() {
	t.gen++
	t.used = 0
	if t.gen == 0 { // wrapped: slots of an old generation could look current
		clear(t.slots)
		t.gen = 1
	}
}

// slot returns where name's value is, or where it goes (holding nil: the
// caller stores it).
func (t *bcLocalTab) slot(name string) **bcLocal {
	if t.gen == 0 {
		t.reset()
	}
	if 4*(t.used+1) > 3*len(t.slots) {
		t.grow()
	}
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	mask := uint32(len(t.slots) - 1)
	for i := (h * 0x9e3779b1) >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen || s.l == nil { // empty, or given out and left empty
			if s.gen != t.gen {
				t.used++
			}
			*s = bcLocalSlot{gen: t.gen, hash: h}
			return &s.l
		}
		if s.hash == h && s.l.name == name {
			return &s.l
		}
	}
}

// grow doubles the slots (64 at first), keeping this generation's values.
func (t *bcLocalTab) grow() {
	old := t.slots
	t.slots = make([]bcLocalSlot, max(64, 2*len(old)))
	t.shift = uint(32 - bits.TrailingZeros(uint(len(t.slots))))
	t.used = 0
	mask := uint32(len(t.slots) - 1)
	for _, s := range old {
		if s.gen != t.gen || s.l == nil {
			continue
		}
		i := (s.hash * 0x9e3779b1) >> t.shift
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = s
		t.used++
	}
}

// each calls fn for every value in the table.
func (t *bcLocalTab) each(fn func(*bcLocal)) {
	for _, s := range t.slots {
		if s.gen == t.gen && s.l != nil {
			fn(s.l)
		}
	}
}
