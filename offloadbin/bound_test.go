package offloadbin

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

// overlapping builds one binary whose m string entries all point into one
// run of l bytes: keys at successive offsets of the run (each a distinct
// suffix), values at its start.
func overlapping(m, l int) []byte {
	strOff := HeaderSize + EntrySize
	run := strOff + m*StringEntrySize
	size := run + l + 1
	b := make([]byte, size)
	copy(b, Magic)
	le := binary.LittleEndian
	le.PutUint32(b[4:], Version)
	le.PutUint64(b[8:], uint64(size))
	le.PutUint64(b[16:], HeaderSize)
	le.PutUint64(b[24:], EntrySize)
	e := b[HeaderSize:]
	le.PutUint64(e[8:], uint64(strOff))
	le.PutUint64(e[16:], uint64(m))
	le.PutUint64(e[24:], uint64(run))
	le.PutUint64(e[32:], 1)
	for i := range m {
		le.PutUint64(b[strOff+i*StringEntrySize:], uint64(run+i%l))
		le.PutUint64(b[strOff+i*StringEntrySize+8:], uint64(run))
	}
	copy(b[run:], strings.Repeat("a", l))
	return b
}

// readAlloc reads b and returns the bytes Read allocated.
func readAlloc(b []byte) (uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(b)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// TestReadOverlappingStrings: string entries that overlap in one run of
// bytes cost Read memory linear in the binary's size (copying each would
// be m·l bytes: 1.2 GB for 208 KB): the strings a binary names may take
// at most twice its size, and one offset named again is read once.
func TestReadOverlappingStrings(t *testing.T) {
	b := overlapping(10000, 10000)
	alloc, err := readAlloc(b)
	if err == nil || !strings.Contains(err.Error(), "more than twice the binary's") {
		t.Errorf("Read of %d overlapping strings: %v", 10000, err)
	}
	if bound := uint64(4*len(b) + 1<<20); alloc > bound {
		t.Errorf("Read of %d bytes allocated %d, over %d", len(b), alloc, bound)
	}
	// Many entries naming the same few strings are fine.
	b = overlapping(2000, 8)
	if _, err := Read(b); err == nil || !strings.Contains(err.Error(), "duplicate key") {
		t.Errorf("repeated keys: %v", err)
	}
}

// FuzzReadBound: however its string entries point into it, a binary costs
// Read memory linear in its size.
func FuzzReadBound(f *testing.F) {
	f.Add(uint16(10000), uint16(10000))
	f.Add(uint16(100), uint16(60000))
	f.Add(uint16(3), uint16(5))
	f.Fuzz(func(t *testing.T, m, l uint16) {
		if l == 0 {
			return
		}
		b := overlapping(int(m), int(l))
		if alloc, _ := readAlloc(b); alloc > uint64(4*len(b)+1<<20) {
			t.Errorf("Read of %d bytes (%d entries into %d bytes) allocated %d", len(b), m, l, alloc)
		}
	})
}
