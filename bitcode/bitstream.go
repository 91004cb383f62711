package bitcode

import "encoding/binary"

// The bitstream container: https://llvm.org/docs/BitCodeFormat.html.
// Records are read into the decoder's reused operand buffer; a blob is a
// slice of the input.

// Abbreviation operand encodings.
const (
	encLiteral = 0
	encFixed   = 1
	encVBR     = 2
	encArray   = 3
	encChar6   = 4
	encBlob    = 5
)

type abbrevOp struct {
	enc uint8
	val uint64 // literal value or bit width
}

type abbrev []abbrevOp

// block is an entered block: its id, abbreviation width, end (in bits)
// and the abbreviations in scope.
type block struct {
	id      uint64
	width   uint
	end     uint64
	abbrevs []abbrev
}

// entry kinds returned by next.
const (
	entRecord = iota
	entSubblock
	entEnd
)

const char6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"

// bits reads an n-bit fixed field (n <= 64).
func (d *decoder) bits(n uint) uint64 {
	if n == 0 {
		return 0
	}
	p := d.pos
	if p+uint64(n) > d.nbits {
		d.recPos = int64(p / 8)
		d.failf("unexpected end of data")
	}
	i := p >> 3
	sh := uint(p & 7)
	var w uint64
	if i+8 <= uint64(len(d.data)) {
		w = binary.LittleEndian.Uint64(d.data[i:])
	} else {
		for k := uint64(0); i+k < uint64(len(d.data)) && k < 8; k++ {
			w |= uint64(d.data[i+k]) << (8 * k)
		}
	}
	v := w >> sh
	if sh+n > 64 {
		v |= uint64(d.data[i+8]) << (64 - sh)
	}
	d.pos += uint64(n)
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// vbr reads a variable-width field of n-bit chunks.
func (d *decoder) vbr(n uint) uint64 {
	hi := uint64(1) << (n - 1)
	piece := d.bits(n)
	if piece&hi == 0 {
		return piece
	}
	var v uint64
	var shift uint
	for {
		v |= (piece & (hi - 1)) << shift
		if piece&hi == 0 {
			return v
		}
		shift += n - 1
		if shift >= 64+n {
			d.recPos = int64(d.pos / 8)
			d.failf("variable-width integer too long")
		}
		piece = d.bits(n)
	}
}

func (d *decoder) align32() {
	d.pos = (d.pos + 31) &^ 31
	if d.pos > d.nbits {
		d.pos = d.nbits
	}
}

// remaining is the number of unread bits.
func (d *decoder) remaining() uint64 { return d.nbits - d.pos }

// enterBlock reads the rest of an ENTER_SUBBLOCK whose block id is read.
func (d *decoder) enterBlock(id uint64) *block {
	start := d.pos
	width := d.vbr(4)
	d.align32()
	words := d.bits(32)
	d.recPos = int64(start / 8)
	if width < 2 || width > 32 {
		d.failf("%s: bad abbreviation width %d", blockName(id), width)
	}
	end := d.pos + words*32
	if end > d.nbits {
		d.failf("%s: block runs past the end of the data", blockName(id))
	}
	if len(d.blocks) > 64 {
		d.failf("blocks nested too deep")
	}
	b := &block{id: id, width: uint(width), end: end}
	if bi := d.blockInfo[id]; len(bi) > 0 {
		b.abbrevs = bi[:len(bi):len(bi)]
	}
	d.blocks = append(d.blocks, id)
	return b
}

// leave pops the block name stack after a block's END_BLOCK.
func (d *decoder) leave() { d.blocks = d.blocks[:len(d.blocks)-1] }

// skipBlock skips a sub-block whose id is read.
func (d *decoder) skipBlock(id uint64) {
	b := d.enterBlock(id)
	d.pos = b.end
	d.leave()
}

// nextRecord reads the next record of block b, skipping its sub-blocks;
// it reports false at the block's end.
func (d *decoder) nextRecord(b *block) bool {
	for {
		kind, id := d.next(b)
		switch kind {
		case entEnd:
			return false
		case entSubblock:
			d.skipBlock(id)
		default:
			return true
		}
	}
}

// next reads the next entry of block b: a record (code in d.code,
// operands in d.ops, blob in d.blob), a sub-block (its id returned) or the
// block's end. Abbreviation definitions are absorbed.
func (d *decoder) next(b *block) (kind int, id uint64) {
	for {
		d.recPos = int64(d.pos / 8)
		d.recCode = -1
		if d.pos >= b.end {
			d.failf("missing END_BLOCK")
		}
		a := d.bits(b.width)
		switch a {
		case EndBlock:
			d.align32()
			if d.pos != b.end {
				d.failf("END_BLOCK before the block's declared end")
			}
			return entEnd, 0
		case EnterSubblock:
			return entSubblock, d.vbr(8)
		case DefineAbbrev:
			b.abbrevs = append(b.abbrevs, d.readAbbrev())
		case UnabbrevRecord:
			d.code = d.vbr(6)
			d.recCode = int64(d.code)
			n := d.vbr(6)
			if n > d.remaining() {
				d.failf("record has more operands than the data has bits")
			}
			d.ops = d.ops[:0]
			for range n {
				d.ops = append(d.ops, d.vbr(6))
			}
			d.blob = nil
			return entRecord, 0
		default:
			i := a - 4
			if i >= uint64(len(b.abbrevs)) {
				d.failf("undefined abbreviation %d", a)
			}
			d.readAbbreviated(b.abbrevs[i])
			return entRecord, 0
		}
	}
}

func (d *decoder) readAbbrev() abbrev {
	n := d.vbr(5)
	if n > d.remaining() || n == 0 {
		d.failf("bad abbreviation definition")
	}
	a := make(abbrev, 0, n)
	for i := uint64(0); i < n; i++ {
		if d.bits(1) == 1 {
			a = append(a, abbrevOp{enc: encLiteral, val: d.vbr(8)})
			continue
		}
		enc := d.bits(3)
		op := abbrevOp{enc: uint8(enc)}
		switch enc {
		case encFixed, encVBR:
			op.val = d.vbr(5)
			if op.val > 64 || (enc == encVBR && op.val == 1) {
				d.failf("bad abbreviation operand width %d", op.val)
			}
			if op.val == 0 { // LLVM reads a zero-width field as literal 0
				op = abbrevOp{enc: encLiteral}
			}
		case encArray:
			if i != n-2 {
				d.failf("array must be the second-to-last abbreviation operand")
			}
		case encBlob:
			if i != n-1 {
				d.failf("blob must be the last abbreviation operand")
			}
		case encChar6:
		default:
			d.failf("bad abbreviation encoding %d", enc)
		}
		a = append(a, op)
	}
	if a[len(a)-1].enc == encArray {
		d.failf("abbreviation ends in an array without an element type")
	}
	if len(a) >= 2 && a[len(a)-2].enc == encArray {
		if e := a[len(a)-1].enc; e == encArray || e == encBlob {
			d.failf("bad array element encoding")
		}
	}
	return a
}

func (d *decoder) scalar(op abbrevOp) uint64 {
	switch op.enc {
	case encLiteral:
		return op.val
	case encFixed:
		return d.bits(uint(op.val))
	case encVBR:
		return d.vbr(uint(op.val))
	default: // encChar6
		return uint64(char6[d.bits(6)])
	}
}

func (d *decoder) readAbbreviated(a abbrev) {
	d.ops = d.ops[:0]
	d.blob = nil
	for i := 0; i < len(a); i++ {
		op := a[i]
		switch op.enc {
		case encArray:
			n := d.vbr(6)
			if n > d.remaining() {
				d.failf("array longer than the data")
			}
			elt := a[i+1]
			for range n {
				d.ops = append(d.ops, d.scalar(elt))
			}
			i++
		case encBlob:
			n := d.vbr(6)
			d.align32()
			if n*8 > d.remaining() {
				d.failf("blob longer than the data")
			}
			start := d.pos / 8
			d.blob = d.data[start : start+n]
			d.pos += n * 8
			d.align32()
		default:
			d.ops = append(d.ops, d.scalar(op))
		}
	}
	if len(d.ops) == 0 {
		d.failf("abbreviated record without a code")
	}
	d.code = d.ops[0]
	d.recCode = int64(d.code)
	n := copy(d.ops, d.ops[1:])
	d.ops = d.ops[:n]
}

// readBlockInfo reads a BLOCKINFO block whose id is read.
func (d *decoder) readBlockInfo() {
	b := d.enterBlock(BlockInfoBlockID)
	var cur []abbrev
	curID := int64(-1)
	flush := func() {
		if curID >= 0 {
			d.blockInfo[uint64(curID)] = cur
		}
	}
	for {
		d.recPos = int64(d.pos / 8)
		a := d.bits(b.width)
		switch a {
		case EndBlock:
			d.align32()
			flush()
			d.pos = b.end
			d.leave()
			return
		case EnterSubblock:
			d.skipBlock(d.vbr(8))
		case DefineAbbrev:
			if curID < 0 {
				d.failf("abbreviation before SETBID")
			}
			cur = append(cur, d.readAbbrev())
		case UnabbrevRecord:
			code := d.vbr(6)
			n := d.vbr(6)
			if n > d.remaining() {
				d.failf("record longer than the data")
			}
			var first uint64
			for k := range n {
				v := d.vbr(6)
				if k == 0 {
					first = v
				}
			}
			if code == BlockInfoCodeSetBID {
				if n < 1 {
					d.failf("SETBID without a block id")
				}
				flush()
				curID = int64(first)
				cur = d.blockInfo[first]
			}
		default:
			d.failf("abbreviated record in BLOCKINFO")
		}
		if d.pos > b.end {
			d.failf("BLOCKINFO runs past its end")
		}
	}
}
