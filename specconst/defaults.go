package specconst

import (
	"encoding/binary"
	"fmt"

	"github.com/sycbuild/sycbuild/llvmir"
)

// appendDefaultBytes appends the memory image of a default value to the
// blob, as the reference's collectSpecConstantDefaultValuesMetadata lays it
// out: zeroinitializer and undef give their store size of zero bytes;
// arrays and vectors are their elements one after another (each scalar at
// its store size); a struct puts each element at its layout offset and is
// zero-filled up to its size; integers and floats are little-endian.
func (l *lowering) appendDefaultBytes(buf *[]byte, v *value) error {
	v = v.canonical()
	switch v.kind {
	case vZero, vUndef, vPoison:
		n, err := l.dl.StoreSize(v.t)
		if err != nil {
			return err
		}
		*buf = append(*buf, make([]byte, n)...)
		return nil
	case vAgg:
		if v.t.Kind != llvmir.StructType {
			for _, e := range v.elems {
				if err := l.appendDefaultBytes(buf, e); err != nil {
					return err
				}
			}
			return nil
		}
		sl, err := l.dl.Layout(v.t)
		if err != nil {
			return err
		}
		base := uint64(len(*buf))
		for i, e := range v.elems {
			for uint64(len(*buf)) < base+sl.Offsets[i] {
				*buf = append(*buf, 0)
			}
			if err := l.appendDefaultBytes(buf, e); err != nil {
				return err
			}
		}
		for uint64(len(*buf)) < base+sl.Size {
			*buf = append(*buf, 0)
		}
		return nil
	case vInt, vFloat:
		n, err := l.dl.StoreSize(v.t)
		if err != nil {
			return err
		}
		if n > 8 {
			return fmt.Errorf("default value %s: scalars wider than 8 bytes are not supported", v.typed())
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v.bits)
		*buf = append(*buf, b[:n]...)
		return nil
	}
	return fmt.Errorf("default value %s cannot be laid out", v.typed())
}
