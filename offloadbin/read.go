package offloadbin

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// An Error is a malformed binary: what is wrong and the byte offset, from
// the start of the input, where it is.
type Error struct {
	Offset uint64
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d (0x%x): %s", e.Offset, e.Offset, e.Msg) }

// Read parses the binaries laid end to end in b (the contents of a
// ".llvm.offloading" section, or a file llvm-offload-binary wrote), each
// starting at a multiple of Alignment, and returns their images in order.
// The images' Data point into b. Anything malformed is an *Error; Read
// never panics, whatever b holds.
func Read(b []byte) ([]*Image, error) {
	var images []*Image
	for off := uint64(0); off < uint64(len(b)); {
		im, size, err := readOne(b[off:], off)
		if err != nil {
			return images, err
		}
		images = append(images, im)
		off += alignUp(size)
	}
	return images, nil
}

// ReadFile reads the binaries of the named file; errors name the file.
func ReadFile(name string) ([]*Image, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	images, err := Read(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return images, nil
}

var le = binary.LittleEndian

// readOne parses the binary at the start of b, which is at offset base of
// the input, and returns it and its size.
func readOne(b []byte, base uint64) (*Image, uint64, error) {
	errAt := func(at uint64, format string, args ...any) error {
		return &Error{Offset: base + at, Msg: fmt.Sprintf(format, args...)}
	}
	if len(b) < HeaderSize {
		return nil, 0, errAt(0, "%d bytes left, too few for an OffloadBinary header (%d)", len(b), HeaderSize)
	}
	if string(b[:4]) != Magic {
		return nil, 0, errAt(0, "no OffloadBinary magic (10 ff 10 ad): % x", b[:4])
	}
	if v := le.Uint32(b[4:]); v != Version {
		return nil, 0, errAt(4, "unsupported OffloadBinary version %d (LLVM 22 writes version %d)", v, Version)
	}
	size := le.Uint64(b[8:])
	if size < HeaderSize+EntrySize || size > uint64(len(b)) {
		return nil, 0, errAt(8, "binary size %d is outside [%d, %d]", size, HeaderSize+EntrySize, len(b))
	}
	b = b[:size]
	entryOff := le.Uint64(b[16:])
	if entryOff < HeaderSize || entryOff > size-EntrySize {
		return nil, 0, errAt(16, "entry offset %d is outside [%d, %d]", entryOff, HeaderSize, size-EntrySize)
	}
	if es := le.Uint64(b[24:]); es != EntrySize {
		return nil, 0, errAt(24, "entry size %d, want %d", es, EntrySize)
	}
	e := b[entryOff:]
	im := &Image{
		ImageKind:   ImageKind(le.Uint16(e[0:])),
		OffloadKind: OffloadKind(le.Uint16(e[2:])),
		Flags:       le.Uint32(e[4:]),
	}
	strOff, numStr := le.Uint64(e[8:]), le.Uint64(e[16:])
	if strOff > size || numStr > (size-strOff)/StringEntrySize {
		return nil, 0, errAt(entryOff+8, "%d string entries at offset %d do not fit in the binary's %d bytes", numStr, strOff, size)
	}
	imgOff, imgSize := le.Uint64(e[24:]), le.Uint64(e[32:])
	if imgOff > size || imgSize > size-imgOff {
		return nil, 0, errAt(entryOff+24, "image of %d bytes at offset %d does not fit in the binary's %d bytes", imgSize, imgOff, size)
	}
	im.Data = b[imgOff : imgOff+imgSize : imgOff+imgSize]
	strs, err := readStrings(b, base, strOff, numStr)
	if err != nil {
		return nil, 0, err
	}
	im.Strings = strs
	return im, size, nil
}

// stringReader reads the NUL-terminated strings of one binary, b, at
// offset base of the input. Entries may name one offset many times
// (LLVM's table shares a string's tail with a longer one): each offset is
// read once. Distinct offsets into one long run would still cost the run's
// length each (quadratic in the binary's size), so the strings read may
// take at most twice the binary's bytes (budget), which no table LLVM
// writes comes near.
type stringReader struct {
	b      []byte
	base   uint64
	read   map[uint64]string
	budget uint64
}

// readStrings reads the numStr key/value entries at strOff of b.
func readStrings(b []byte, base, strOff, numStr uint64) ([]String, error) {
	size := uint64(len(b))
	r := &stringReader{b: b, base: base, read: map[uint64]string{}, budget: 2*size + 4096}
	strs := make([]String, 0, numStr)
	seen := make(map[string]bool, numStr)
	for i := uint64(0); i < numStr; i++ {
		at := strOff + i*StringEntrySize
		k, err := r.str(at, 0)
		if err != nil {
			return nil, err
		}
		v, err := r.str(at+8, 1)
		if err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, r.errAt(at, "duplicate key %q", k)
		}
		seen[k] = true
		strs = append(strs, String{k, v})
	}
	return strs, nil
}

func (r *stringReader) errAt(at uint64, format string, args ...any) error {
	return &Error{Offset: r.base + at, Msg: fmt.Sprintf(format, args...)}
}

// str reads the string whose offset is at at, the entry's field (0: key,
// 1: value).
func (r *stringReader) str(at, field uint64) (string, error) {
	b, size := r.b, uint64(len(r.b))
	o := le.Uint64(b[at:])
	if o >= size {
		return "", r.errAt(at, "%s offset %d is outside the binary's %d bytes", fieldName[field], o, size)
	}
	if s, ok := r.read[o]; ok {
		return s, nil
	}
	// Scanning costs what copying does; both stop at the budget.
	n := bytes.IndexByte(b[o:min(size, o+r.budget+1)], 0)
	if n < 0 && o+r.budget+1 < size {
		return "", r.errAt(at, "the strings take more than twice the binary's %d bytes: entries overlap", size)
	}
	if n < 0 {
		return "", r.errAt(o, "%s is not NUL-terminated within the binary", fieldName[field])
	}
	if uint64(n) > r.budget {
		return "", r.errAt(at, "the strings take more than twice the binary's %d bytes: entries overlap", size)
	}
	r.budget -= uint64(n)
	s := string(b[o : o+uint64(n)])
	r.read[o] = s
	return s, nil
}

var fieldName = [2]string{"key", "value"}
