package offloadbin

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Marshal returns the bytes of images, one binary each, laid end to end as
// llvm-offload-binary writes several --image options. Each binary is laid
// out as LLVM 22's OffloadBinary::write does it, so the bytes are
// deterministic: they depend only on the images and the order of their
// strings.
func Marshal(images ...*Image) ([]byte, error) {
	var n uint64
	for _, im := range images {
		sz, err := im.size()
		if err != nil {
			return nil, err
		}
		n += sz
	}
	out := make([]byte, 0, n)
	for _, im := range images {
		out = im.append(out)
	}
	return out, nil
}

// AppendBinary appends the binary of im to b.
func (im *Image) AppendBinary(b []byte) ([]byte, error) {
	if _, err := im.size(); err != nil {
		return b, err
	}
	return im.append(b), nil
}

// check reports whether im can be written: keys are unique and no string
// holds NUL (version 1 strings are NUL-terminated).
func (im *Image) check() error {
	seen := make(map[string]bool, len(im.Strings))
	for _, s := range im.Strings {
		if seen[s.Key] {
			return fmt.Errorf("offloadbin: duplicate key %q", s.Key)
		}
		seen[s.Key] = true
		if strings.IndexByte(s.Key, 0) >= 0 {
			return fmt.Errorf("offloadbin: key %q holds a NUL byte", s.Key)
		}
		if strings.IndexByte(s.Value, 0) >= 0 {
			return fmt.Errorf("offloadbin: value of %q holds a NUL byte", s.Key)
		}
	}
	return nil
}

// size is the size of im's binary.
func (im *Image) size() (uint64, error) {
	if err := im.check(); err != nil {
		return 0, err
	}
	_, tab := im.strtab()
	return im.layout(len(tab)).size, nil
}

type layout struct {
	strtab, image, size uint64
}

func (im *Image) layout(strtabLen int) layout { return im.layoutN(strtabLen, uint64(len(im.Data))) }

// layoutN is the layout of im's binary with an image of n bytes.
func (im *Image) layoutN(strtabLen int, n uint64) layout {
	strtab := uint64(HeaderSize + EntrySize + StringEntrySize*len(im.Strings))
	image := alignUp(strtab + uint64(strtabLen))
	return layout{strtab, image, alignUp(image + n)}
}

func (im *Image) append(b []byte) []byte {
	b, l := im.appendHeader(b, uint64(len(im.Data)))
	b = append(b, im.Data...)
	return append(b, make([]byte, l.size-l.image-uint64(len(im.Data)))...)
}

// Header returns the bytes of im's binary that come before its image, for
// an image of n bytes (im.Data is not used), and the size of the whole
// binary: the binary is the header, the n bytes of the image, then
// size-len(header)-n zero bytes. A writer can so stream an image it does
// not hold in memory.
func (im *Image) Header(n uint64) (header []byte, size uint64, err error) {
	if err := im.check(); err != nil {
		return nil, 0, err
	}
	b, l := im.appendHeader(nil, n)
	return b, l.size, nil
}

// appendHeader appends what comes before the image of im's binary, for an
// image of n bytes, and returns the binary's layout.
func (im *Image) appendHeader(b []byte, n uint64) ([]byte, layout) {
	offs, tab := im.strtab()
	l := im.layoutN(len(tab), n)
	le := binary.LittleEndian
	b = append(b, Magic...)
	b = le.AppendUint32(b, Version)
	b = le.AppendUint64(b, l.size)
	b = le.AppendUint64(b, HeaderSize) // EntryOffset
	b = le.AppendUint64(b, EntrySize)
	b = le.AppendUint16(b, uint16(im.ImageKind))
	b = le.AppendUint16(b, uint16(im.OffloadKind))
	b = le.AppendUint32(b, im.Flags)
	b = le.AppendUint64(b, HeaderSize+EntrySize) // StringOffset
	b = le.AppendUint64(b, uint64(len(im.Strings)))
	b = le.AppendUint64(b, l.image)
	b = le.AppendUint64(b, n)
	for _, s := range im.Strings {
		b = le.AppendUint64(b, l.strtab+offs[s.Key])
		b = le.AppendUint64(b, l.strtab+offs[s.Value])
	}
	b = append(b, tab...)
	return append(b, make([]byte, l.image-l.strtab-uint64(len(tab)))...), l
}

// strtab builds the string table as LLVM's StringTableBuilder in its ELF
// kind does: a leading NUL (the empty string's offset 0), then the strings
// sorted by their reversed bytes, descending, each NUL-terminated, except
// that a string which ends the one placed before it shares that one's tail.
func (im *Image) strtab() (map[string]uint64, []byte) {
	offs := make(map[string]uint64, 2*len(im.Strings)+1)
	var strs []string
	for _, s := range im.Strings {
		for _, v := range [2]string{s.Key, s.Value} {
			if _, ok := offs[v]; !ok && v != "" {
				offs[v] = 0
				strs = append(strs, v)
			}
		}
	}
	offs[""] = 0
	slices.SortFunc(strs, func(a, b string) int { return -compareReversed(a, b) })
	tab := []byte{0}
	prev := ""
	for _, s := range strs {
		if strings.HasSuffix(prev, s) {
			offs[s] = uint64(len(tab) - len(s) - 1)
			continue
		}
		offs[s] = uint64(len(tab))
		tab = append(tab, s...)
		tab = append(tab, 0)
		prev = s
	}
	return offs, tab
}

// compareReversed compares a and b read from their last byte to their
// first; a string that is a proper suffix of the other is the smaller.
func compareReversed(a, b string) int {
	for i := 1; i <= len(a) && i <= len(b); i++ {
		ca, cb := a[len(a)-i], b[len(b)-i]
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}
