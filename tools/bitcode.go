package tools

import (
	"encoding/binary"
	"errors"
)

// LLVM bitcode is read only far enough to learn which LLVM wrote it (the
// IDENTIFICATION block's producer string, "LLVM15.0.6") and the module's
// target triple: that decides which llvm-link and llvm-dis may read it,
// since an older LLVM cannot read a newer LLVM's bitcode. The bitstream
// format: https://llvm.org/docs/BitCodeFormat.html.

const (
	bcIdentificationBlock = 13
	bcModuleBlock         = 8
	bcIdentString         = 1 // IDENTIFICATION_CODE_STRING
	bcModuleTriple        = 2 // MODULE_CODE_TRIPLE
)

var errBitcode = errors.New("malformed bitcode")

// bitcodeInfo returns the producer string and target triple of a bitcode
// file's data ("" for what it does not hold).
func bitcodeInfo(data []byte) (producer, triple string, err error) {
	if len(data) >= 20 && binary.LittleEndian.Uint32(data) == 0x0B17C0DE {
		// The wrapper header: magic, version, offset, size, cputype.
		off := binary.LittleEndian.Uint32(data[8:])
		size := binary.LittleEndian.Uint32(data[12:])
		if uint64(off)+uint64(size) > uint64(len(data)) {
			return "", "", errBitcode
		}
		data = data[off : off+size]
	}
	if len(data) < 4 || string(data[:2]) != "BC" || data[2] != 0xC0 || data[3] != 0xDE {
		return "", "", errors.New("not LLVM bitcode")
	}
	r := &bitReader{data: data, pos: 32}
	for r.pos+32 <= len(data)*8 && (producer == "" || triple == "") {
		id, ok := r.read(2)
		if !ok {
			break
		}
		if id != 1 { // top level holds only ENTER_SUBBLOCK
			return producer, triple, errBitcode
		}
		b, ok := r.enterBlock()
		if !ok {
			return producer, triple, errBitcode
		}
		switch b.id {
		case bcIdentificationBlock:
			err = r.records(b, func(code uint64, ops []uint64) {
				if code == bcIdentString {
					producer = opsString(ops)
				}
			})
		case bcModuleBlock:
			err = r.records(b, func(code uint64, ops []uint64) {
				if code == bcModuleTriple {
					triple = opsString(ops)
				}
			})
			return producer, triple, err // nothing after the module matters
		default:
			r.pos = b.end
		}
		if err != nil {
			return producer, triple, err
		}
	}
	return producer, triple, nil
}

func opsString(ops []uint64) string {
	b := make([]byte, len(ops))
	for i, o := range ops {
		b[i] = byte(o)
	}
	return string(b)
}

type bitReader struct {
	data []byte
	pos  int // in bits
}

func (r *bitReader) read(n int) (uint64, bool) {
	if n == 0 {
		return 0, true
	}
	if n > 64 || r.pos+n > len(r.data)*8 {
		return 0, false
	}
	var v uint64
	for i := 0; i < n; {
		byteI, bit := r.pos>>3, r.pos&7
		take := min(8-bit, n-i)
		chunk := uint64(r.data[byteI]>>bit) & (1<<take - 1)
		v |= chunk << i
		i += take
		r.pos += take
	}
	return v, true
}

func (r *bitReader) vbr(n int) (uint64, bool) {
	var v uint64
	for shift := 0; shift < 64; shift += n - 1 {
		piece, ok := r.read(n)
		if !ok {
			return 0, false
		}
		v |= (piece & (1<<(n-1) - 1)) << shift
		if piece&(1<<(n-1)) == 0 {
			return v, true
		}
	}
	return 0, false
}

func (r *bitReader) align32() { r.pos = (r.pos + 31) &^ 31 }

type block struct {
	id    uint64
	width int
	end   int // bit position after the block
}

// enterBlock reads an ENTER_SUBBLOCK's operands (its abbreviation id is
// already read).
func (r *bitReader) enterBlock() (block, bool) {
	id, ok1 := r.vbr(8)
	width, ok2 := r.vbr(4)
	r.align32()
	words, ok3 := r.read(32)
	if !ok1 || !ok2 || !ok3 || width == 0 || width > 32 {
		return block{}, false
	}
	end := r.pos + int(words)*32
	if end > len(r.data)*8 {
		return block{}, false
	}
	return block{id: id, width: int(width), end: end}, true
}

// abbrevOp is one operand of an abbreviation.
type abbrevOp struct {
	kind  int // 0 literal, 1 fixed, 2 vbr, 3 array, 4 char6, 5 blob
	value uint64
}

// records calls f for every record of block b (sub-blocks are skipped),
// and leaves the reader after the block.
func (r *bitReader) records(b block, f func(code uint64, ops []uint64)) error {
	var abbrevs [][]abbrevOp
	for r.pos < b.end {
		id, ok := r.read(b.width)
		if !ok {
			return errBitcode
		}
		switch id {
		case 0: // END_BLOCK
			r.align32()
			r.pos = b.end
			return nil
		case 1: // ENTER_SUBBLOCK
			sub, ok := r.enterBlock()
			if !ok {
				return errBitcode
			}
			r.pos = sub.end
		case 2: // DEFINE_ABBREV
			a, ok := r.defineAbbrev()
			if !ok {
				return errBitcode
			}
			abbrevs = append(abbrevs, a)
		case 3: // UNABBREV_RECORD
			code, ok1 := r.vbr(6)
			n, ok2 := r.vbr(6)
			if !ok1 || !ok2 || n > uint64(len(r.data)*8) {
				return errBitcode
			}
			ops := make([]uint64, 0, n)
			for range n {
				v, ok := r.vbr(6)
				if !ok {
					return errBitcode
				}
				ops = append(ops, v)
			}
			f(code, ops)
		default:
			i := int(id) - 4
			if i >= len(abbrevs) {
				return errBitcode // defined in BLOCKINFO; not needed here
			}
			vals, ok := r.abbreviated(abbrevs[i])
			if !ok || len(vals) == 0 {
				return errBitcode
			}
			f(vals[0], vals[1:])
		}
	}
	return nil
}

func (r *bitReader) defineAbbrev() ([]abbrevOp, bool) {
	n, ok := r.vbr(5)
	if !ok || n > 1<<16 {
		return nil, false
	}
	ops := make([]abbrevOp, 0, n)
	for range n {
		lit, ok := r.read(1)
		if !ok {
			return nil, false
		}
		if lit == 1 {
			v, ok := r.vbr(8)
			if !ok {
				return nil, false
			}
			ops = append(ops, abbrevOp{kind: 0, value: v})
			continue
		}
		enc, ok := r.read(3)
		if !ok || enc < 1 || enc > 5 {
			return nil, false
		}
		op := abbrevOp{kind: int(enc)}
		if enc == 1 || enc == 2 {
			if op.value, ok = r.vbr(5); !ok || op.value > 64 {
				return nil, false
			}
		}
		ops = append(ops, op)
	}
	return ops, true
}

func (r *bitReader) scalar(op abbrevOp) (uint64, bool) {
	switch op.kind {
	case 0:
		return op.value, true
	case 1:
		return r.read(int(op.value))
	case 2:
		if op.value < 2 {
			return 0, false
		}
		return r.vbr(int(op.value))
	case 4:
		v, ok := r.read(6)
		const char6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"
		return uint64(char6[v]), ok
	}
	return 0, false
}

func (r *bitReader) abbreviated(ops []abbrevOp) ([]uint64, bool) {
	var vals []uint64
	for i := 0; i < len(ops); i++ {
		switch op := ops[i]; op.kind {
		case 3: // array: length, then elements of the next operand's kind
			if i+1 >= len(ops) {
				return nil, false
			}
			n, ok := r.vbr(6)
			if !ok || n > uint64(len(r.data)*8) {
				return nil, false
			}
			for range n {
				v, ok := r.scalar(ops[i+1])
				if !ok {
					return nil, false
				}
				vals = append(vals, v)
			}
			i++
		case 5: // blob
			n, ok := r.vbr(6)
			if !ok {
				return nil, false
			}
			r.align32()
			if r.pos+int(n)*8 > len(r.data)*8 {
				return nil, false
			}
			for k := range int(n) {
				vals = append(vals, uint64(r.data[r.pos/8+k]))
			}
			r.pos += int(n) * 8
			r.align32()
		default:
			v, ok := r.scalar(op)
			if !ok {
				return nil, false
			}
			vals = append(vals, v)
		}
	}
	return vals, true
}
