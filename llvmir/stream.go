package llvmir

import (
	"io"
	"math/bits"
	"strconv"
)

// streamer renders output chunks into buf, keeping an entity's text that
// does not end its line apart from a following token, and hands buf to w
// (when set) whenever it holds flushAt bytes.
type streamer struct {
	buf    []byte
	w      io.Writer
	g      *Gathered // set when gathering (Plan.Gather)
	err    error
	renum  map[int]int // nil: no @N changes
	needNL bool
	// strip leaves comment lines out; comments are the module's
	// commentLines.
	strip    bool
	comments []uint8
	f        stripper
	scratch  []byte // renumbered text on its way through the line filter
}

const flushAt = 256 << 10

// textClean reports whether module entity e's Text is known to hold no
// comment line (only asked when stripping).
func (s *streamer) textClean(e *Entity) bool {
	return s.comments != nil && s.comments[e.Index]&textComments == 0
}

// textEndsLine reports whether module entity e's Text is known to end with
// a newline (only known when stripping).
func (s *streamer) textEndsLine(e *Entity) bool {
	return s.comments != nil && s.comments[e.Index]&textEndsLine != 0
}

// putLead writes the Lead of module entity e.
func (s *streamer) putLead(e *Entity) {
	if s.comments != nil && s.comments[e.Index]&leadOneLine != 0 && !s.needNL && s.f.state == lineStart && len(s.f.pending) == 0 {
		// What the filter would make of it, without reading it.
		s.buf = append(s.buf, '\n')
		s.flush()
		return
	}
	s.put(e.Lead, nil, false, s.comments != nil && s.comments[e.Index]&leadComments == 0, false)
}

// put writes chunk b; rest, when not empty, continues b (both pieces split
// at a token boundary). rewrite says the text may hold @N references to
// renumber; clean says both pieces hold no comment line; endsLine says the
// last piece ends with a newline, so that neither the filter nor put need
// read its end (the end of an entity's text is, most of the time, the one
// byte of it the writer would read: the bytes go to the file by writev).
func (s *streamer) put(b, rest []byte, rewrite, clean, endsLine bool) {
	suffix := false
	if len(b) == 0 {
		b, rest, suffix = rest, nil, true
	}
	if len(b) == 0 {
		return
	}
	if s.needNL && !isSpace(b[0]) {
		s.emit(newline)
	}
	last := b
	for k, c := range [2][]byte{b, rest} {
		if len(c) == 0 {
			continue
		}
		last = c
		var renum map[int]int
		if rewrite {
			renum = s.renum
		}
		done := !s.strip
		if done {
			s.source(c, renum)
		} else if clean {
			var body []byte
			lastPiece := endsLine && (k == 1 || len(rest) == 0)
			if s.buf, body, done = s.f.clean(s.buf, c, suffix || k == 1, lastPiece); done {
				s.source(body, renum)
			}
		}
		if !done {
			if renum != nil {
				// Renumbering neither makes nor breaks a comment line.
				s.scratch = appendRenumbered(s.scratch[:0], c, renum)
				c = s.scratch
			}
			s.buf = s.f.filter(s.buf, c)
		}
		s.flush()
	}
	s.needNL = !endsLine && !isSpace(last[len(last)-1])
}

// source appends p, a piece of the module's source, with its @N
// references renumbered when renum is set: copied into buf, or, when
// gathering, referenced in g where it is long (the short pieces between
// renumbered references are copied).
func (s *streamer) source(p []byte, renum map[int]int) {
	if s.g == nil {
		if renum != nil {
			s.buf = appendRenumbered(s.buf, p, renum)
		} else {
			s.buf = append(s.buf, p...)
		}
		return
	}
	if renum != nil {
		for {
			at, end, nn := nextRenumbered(p, 0, renum)
			if at < 0 {
				break
			}
			s.gather(p[:at+1])
			s.buf = strconv.AppendInt(s.buf, int64(nn), 10)
			p = p[end:]
		}
	}
	s.gather(p)
}

// gather appends source text p: by reference if it is long enough that
// copying it costs more than a piece of a writev.
func (s *streamer) gather(p []byte) {
	if len(p) < gatherMin {
		s.buf = append(s.buf, p...)
		return
	}
	s.g.refs = append(s.g.refs, sourceRef{at: len(s.buf), text: p})
}

// gatherMin is the length from which gathering references source text
// rather than copying it.
const gatherMin = 512

var newline = []byte{'\n'}

// emit appends c, through the comment filter when stripping.
func (s *streamer) emit(c []byte) {
	if s.strip {
		s.buf = s.f.filter(s.buf, c)
	} else {
		s.buf = append(s.buf, c...)
	}
	s.flush()
}

// endLine ends the current line if the last chunk did not.
func (s *streamer) endLine() {
	if s.needNL {
		s.emit(newline)
		s.needNL = false
	}
}

// flush hands the buffer to w once it is large enough.
func (s *streamer) flush() {
	if s.w == nil || len(s.buf) < flushAt {
		return
	}
	if s.err == nil {
		_, s.err = s.w.Write(s.buf)
	}
	s.buf = s.buf[:0]
}

// finish hands the rest of the buffer to w; without w it returns the
// rendered module.
func (s *streamer) finish() ([]byte, error) {
	if s.w == nil {
		return s.buf, nil
	}
	if s.err == nil && len(s.buf) > 0 {
		_, s.err = s.w.Write(s.buf)
	}
	return nil, s.err
}

// outTable holds the module entities a plan writes with an outEntity, by
// entity index: a slice over the whole module for a full plan, a hash
// table of only those for a sparse plan.
type outTable struct {
	dense  []*outEntity
	sparse entityTable
}

func (t *outTable) set(i int32, o *outEntity) {
	if t.dense != nil {
		t.dense[i] = o
		return
	}
	t.sparse.set(i, o)
}

func (t *outTable) get(i int) *outEntity {
	if t.dense != nil {
		return t.dense[i]
	}
	return t.sparse.get(int32(i))
}

// entityTable maps entity indexes to outEntities: open addressing with
// linear probing, never more than half full. A split writes one sparse
// plan after another with the same table, each a hundred entries or so:
// emptying it costs what the last plan put in (used), not its capacity,
// and it allocates nothing once it has grown to size.
type entityTable struct {
	slots []entitySlot // len is a power of two, or 0
	shift uint8        // 32 - log2(len(slots)): a key's slot is the top bits of its hash
	used  []int32      // the slots taken, in the order they were taken
}

// entitySlot is a slot of an entityTable: key is the entity index + 1 (0
// for an empty slot).
type entitySlot struct {
	key int32
	o   *outEntity
}

// clear empties t, keeping its storage.
func (t *entityTable) clear() {
	for _, s := range t.used {
		t.slots[s] = entitySlot{}
	}
	t.used = t.used[:0]
}

// reset empties t, with room for n entries without growing; storage far
// larger than that is let go.
func (t *entityTable) reset(n int) {
	t.clear()
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(t.slots) < size || len(t.slots) > 16*size {
		t.make(size)
	}
}

// make gives t size empty slots (a power of two).
func (t *entityTable) make(size int) {
	t.slots = make([]entitySlot, size)
	t.shift = uint8(32 - bits.TrailingZeros(uint(size)))
}

// find returns the slot of key i, or the empty slot where it would go.
func (t *entityTable) find(i int32) int {
	mask := uint32(len(t.slots) - 1)
	s := (uint32(i) * 0x9E3779B1) >> t.shift // Fibonacci hashing
	for t.slots[s].key != 0 && t.slots[s].key != i+1 {
		s = (s + 1) & mask
	}
	return int(s)
}

func (t *entityTable) set(i int32, o *outEntity) {
	if 2*(len(t.used)+1) > len(t.slots) {
		t.grow()
	}
	s := t.find(i)
	if t.slots[s].key == 0 {
		t.slots[s].key = i + 1
		t.used = append(t.used, int32(s))
	}
	t.slots[s].o = o
}

func (t *entityTable) get(i int32) *outEntity {
	if len(t.slots) == 0 {
		return nil
	}
	return t.slots[t.find(i)].o
}

// grow doubles the table (makes it, the first time).
func (t *entityTable) grow() {
	old, used := t.slots, t.used
	t.make(max(16, 2*len(old)))
	t.used = make([]int32, 0, max(cap(used), len(t.slots)/2))
	for _, s := range used {
		e := old[s]
		n := t.find(e.key - 1)
		t.slots[n] = e
		t.used = append(t.used, int32(n))
	}
}

// each calls f with every entry, in the order they were first set.
func (t *entityTable) each(f func(i int32, o *outEntity)) {
	for _, s := range t.used {
		e := &t.slots[s]
		f(e.key-1, e.o)
	}
}

// len is the number of entries.
func (t *entityTable) len() int { return len(t.used) }

// Gathered is a module rendered by Plan.Gather: bytes rendered into a
// buffer and, between them, pieces of the module's source referenced in
// place. The zero value is ready to use; one Gathered can be reused for
// module after module.
type Gathered struct {
	buf  []byte
	refs []sourceRef
}

// sourceRef is a piece of source text written after buf[:at].
type sourceRef struct {
	at   int
	text []byte
}

// Reset empties g, keeping its storage, and lets go of the source text it
// referenced.
func (g *Gathered) Reset() {
	clear(g.refs)
	g.buf, g.refs = g.buf[:0], g.refs[:0]
}

// Pieces appends to dst the module's bytes, in order, as non-empty pieces
// of g's buffer and of the source, and returns the extended slice.
func (g *Gathered) Pieces(dst [][]byte) [][]byte {
	last := 0
	for _, r := range g.refs {
		if r.at > last {
			dst = append(dst, g.buf[last:r.at])
		}
		dst = append(dst, r.text)
		last = r.at
	}
	if len(g.buf) > last {
		dst = append(dst, g.buf[last:])
	}
	return dst
}
