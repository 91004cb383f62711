package bitstream

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// The abbreviation IDs every block has, and the BLOCKINFO block's ID and
// its SETBID record's code.
const (
	EndBlock       = 0
	EnterSubblock  = 1
	DefineAbbrev   = 2
	UnabbrevRecord = 3

	BlockInfoBlockID    = 0
	BlockInfoCodeSetBID = 1
)

// Abbreviation operand encodings, as a definition writes them.
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

// Abbrev is an abbreviation read from a block or from BLOCKINFO.
type Abbrev []abbrevOp

// Block is an entered block: its ID, abbreviation width, end (in bits)
// and the abbreviations in scope.
type Block struct {
	ID      uint64
	Width   uint
	End     uint64
	Abbrevs []Abbrev
}

// The kinds of entry Next returns.
const (
	Record = iota
	Subblock
	End
)

const char6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"

// Reader reads a bitstream in place: records are read into the reused
// operand buffer Ops, and a blob is a slice of Data. A malformed stream
// makes it panic with a *Error naming the file, the record's byte offset,
// the enclosing block and the record code; Catch, deferred at the
// reader's entry points, turns that panic into an error.
type Reader struct {
	File  string // the file named in errors
	Base  int64  // offset of Data in the file (a wrapper header precedes it)
	Data  []byte
	NBits uint64
	Pos   uint64 // bit position

	// The record last read.
	Code    uint64
	Ops     []uint64
	Blob    []byte
	RecPos  int64 // byte offset in Data of the record, or of what failed
	RecCode int64 // its code; -1 when not at a record

	Blocks    []uint64 // IDs of the entered blocks, for messages
	BlockInfo map[uint64][]Abbrev
	// Names names blocks in messages ("FUNCTION_BLOCK"); an ID it lacks
	// is "block N".
	Names map[uint64]string
}

// NewReader returns a reader of data, named file in errors, that starts
// after the 32-bit magic; base is data's offset in the file.
func NewReader(file string, data []byte, base int64, names map[uint64]string) Reader {
	return Reader{File: file, Data: data, Base: base, NBits: uint64(len(data)) * 8, Pos: 32,
		BlockInfo: map[uint64][]Abbrev{}, RecCode: -1, Names: names}
}

// Bits reads an n-bit fixed field (n <= 64).
func (d *Reader) Bits(n uint) uint64 {
	if n == 0 {
		return 0
	}
	p := d.Pos
	if p+uint64(n) > d.NBits {
		d.RecPos = int64(p / 8)
		d.Fail("unexpected end of data")
	}
	i := p >> 3
	sh := uint(p & 7)
	var w uint64
	if i+8 <= uint64(len(d.Data)) {
		w = binary.LittleEndian.Uint64(d.Data[i:])
	} else {
		for k := uint64(0); i+k < uint64(len(d.Data)) && k < 8; k++ {
			w |= uint64(d.Data[i+k]) << (8 * k)
		}
	}
	v := w >> sh
	if sh+n > 64 {
		v |= uint64(d.Data[i+8]) << (64 - sh)
	}
	d.Pos += uint64(n)
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// VBR reads a variable-width field of n-bit chunks.
func (d *Reader) VBR(n uint) uint64 {
	hi := uint64(1) << (n - 1)
	piece := d.Bits(n)
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
			d.RecPos = int64(d.Pos / 8)
			d.Fail("variable-width integer too long")
		}
		piece = d.Bits(n)
	}
}

func (d *Reader) Align32() {
	d.Pos = (d.Pos + 31) &^ 31
	if d.Pos > d.NBits {
		d.Pos = d.NBits
	}
}

// Remaining is the number of unread bits.
func (d *Reader) Remaining() uint64 { return d.NBits - d.Pos }

// EnterBlock reads the rest of an ENTER_SUBBLOCK whose block id is read.
func (d *Reader) EnterBlock(id uint64) *Block {
	start := d.Pos
	width := d.VBR(4)
	d.Align32()
	words := d.Bits(32)
	d.RecPos = int64(start / 8)
	if width < 2 || width > 32 {
		d.Fail("%s: bad abbreviation width %d", d.name(id), width)
	}
	end := d.Pos + words*32
	if end > d.NBits {
		d.Fail("%s: block runs past the end of the data", d.name(id))
	}
	if len(d.Blocks) > 64 {
		d.Fail("blocks nested too deep")
	}
	b := &Block{ID: id, Width: uint(width), End: end}
	if bi := d.BlockInfo[id]; len(bi) > 0 {
		b.Abbrevs = bi[:len(bi):len(bi)]
	}
	d.Blocks = append(d.Blocks, id)
	return b
}

// Leave pops the block name stack after a block's END_BLOCK.
func (d *Reader) Leave() { d.Blocks = d.Blocks[:len(d.Blocks)-1] }

// SkipBlock skips a sub-block whose id is read.
func (d *Reader) SkipBlock(id uint64) {
	b := d.EnterBlock(id)
	d.Pos = b.End
	d.Leave()
}

// NextRecord reads the next record of block b, skipping its sub-blocks;
// it reports false at the block's end.
func (d *Reader) NextRecord(b *Block) bool {
	for {
		kind, id := d.Next(b)
		switch kind {
		case End:
			return false
		case Subblock:
			d.SkipBlock(id)
		default:
			return true
		}
	}
}

// Next reads the next entry of block b: a record (code in d.Code,
// operands in d.Ops, blob in d.Blob), a sub-block (its id returned) or the
// block's end. Abbreviation definitions are absorbed.
func (d *Reader) Next(b *Block) (kind int, id uint64) {
	for {
		d.RecPos = int64(d.Pos / 8)
		d.RecCode = -1
		if d.Pos >= b.End {
			d.Fail("missing END_BLOCK")
		}
		a := d.Bits(b.Width)
		switch a {
		case EndBlock:
			d.Align32()
			if d.Pos != b.End {
				d.Fail("END_BLOCK before the block's declared end")
			}
			return End, 0
		case EnterSubblock:
			return Subblock, d.VBR(8)
		case DefineAbbrev:
			b.Abbrevs = append(b.Abbrevs, d.readAbbrev())
		case UnabbrevRecord:
			d.Code = d.VBR(6)
			d.RecCode = int64(d.Code)
			n := d.VBR(6)
			if n > d.Remaining() {
				d.Fail("record has more operands than the data has bits")
			}
			d.Ops = d.Ops[:0]
			for range n {
				d.Ops = append(d.Ops, d.VBR(6))
			}
			d.Blob = nil
			return Record, 0
		default:
			i := a - 4
			if i >= uint64(len(b.Abbrevs)) {
				d.Fail("undefined abbreviation %d", a)
			}
			d.readAbbreviated(b.Abbrevs[i])
			return Record, 0
		}
	}
}

func (d *Reader) readAbbrev() Abbrev {
	n := d.VBR(5)
	if n > d.Remaining() || n == 0 {
		d.Fail("bad abbreviation definition")
	}
	a := make(Abbrev, 0, n)
	for i := uint64(0); i < n; i++ {
		if d.Bits(1) == 1 {
			a = append(a, abbrevOp{enc: encLiteral, val: d.VBR(8)})
			continue
		}
		enc := d.Bits(3)
		op := abbrevOp{enc: uint8(enc)}
		switch enc {
		case encFixed, encVBR:
			op.val = d.VBR(5)
			if op.val > 64 || (enc == encVBR && op.val == 1) {
				d.Fail("bad abbreviation operand width %d", op.val)
			}
			if op.val == 0 { // LLVM reads a zero-width field as literal 0
				op = abbrevOp{enc: encLiteral}
			}
		case encArray:
			if i != n-2 {
				d.Fail("array must be the second-to-last abbreviation operand")
			}
		case encBlob:
			if i != n-1 {
				d.Fail("blob must be the last abbreviation operand")
			}
		case encChar6:
		default:
			d.Fail("bad abbreviation encoding %d", enc)
		}
		a = append(a, op)
	}
	if a[len(a)-1].enc == encArray {
		d.Fail("abbreviation ends in an array without an element type")
	}
	if len(a) >= 2 && a[len(a)-2].enc == encArray {
		if e := a[len(a)-1].enc; e == encArray || e == encBlob {
			d.Fail("bad array element encoding")
		}
	}
	return a
}

func (d *Reader) scalar(op abbrevOp) uint64 {
	switch op.enc {
	case encLiteral:
		return op.val
	case encFixed:
		return d.Bits(uint(op.val))
	case encVBR:
		return d.VBR(uint(op.val))
	default: // encChar6
		return uint64(char6[d.Bits(6)])
	}
}

func (d *Reader) readAbbreviated(a Abbrev) {
	d.Ops = d.Ops[:0]
	d.Blob = nil
	for i := 0; i < len(a); i++ {
		op := a[i]
		switch op.enc {
		case encArray:
			n := d.VBR(6)
			if n > d.Remaining() {
				d.Fail("array longer than the data")
			}
			elt := a[i+1]
			for range n {
				d.Ops = append(d.Ops, d.scalar(elt))
			}
			i++
		case encBlob:
			n := d.VBR(6)
			d.Align32()
			if n*8 > d.Remaining() {
				d.Fail("blob longer than the data")
			}
			start := d.Pos / 8
			d.Blob = d.Data[start : start+n]
			d.Pos += n * 8
			d.Align32()
		default:
			d.Ops = append(d.Ops, d.scalar(op))
		}
	}
	if len(d.Ops) == 0 {
		d.Fail("abbreviated record without a code")
	}
	d.Code = d.Ops[0]
	d.RecCode = int64(d.Code)
	n := copy(d.Ops, d.Ops[1:])
	d.Ops = d.Ops[:n]
}

// ReadBlockInfo reads a BLOCKINFO block whose id is read.
func (d *Reader) ReadBlockInfo() {
	b := d.EnterBlock(BlockInfoBlockID)
	var cur []Abbrev
	curID := int64(-1)
	flush := func() {
		if curID >= 0 {
			d.BlockInfo[uint64(curID)] = cur
		}
	}
	for {
		d.RecPos = int64(d.Pos / 8)
		a := d.Bits(b.Width)
		switch a {
		case EndBlock:
			d.Align32()
			flush()
			d.Pos = b.End
			d.Leave()
			return
		case EnterSubblock:
			d.SkipBlock(d.VBR(8))
		case DefineAbbrev:
			if curID < 0 {
				d.Fail("abbreviation before SETBID")
			}
			cur = append(cur, d.readAbbrev())
		case UnabbrevRecord:
			code := d.VBR(6)
			n := d.VBR(6)
			if n > d.Remaining() {
				d.Fail("record longer than the data")
			}
			var first uint64
			for k := range n {
				v := d.VBR(6)
				if k == 0 {
					first = v
				}
			}
			if code == BlockInfoCodeSetBID {
				if n < 1 {
					d.Fail("SETBID without a block id")
				}
				flush()
				curID = int64(first)
				cur = d.BlockInfo[first]
			}
		default:
			d.Fail("abbreviated record in BLOCKINFO")
		}
		if d.Pos > b.End {
			d.Fail("BLOCKINFO runs past its end")
		}
	}
}

// Error is a malformed or unsupported bitstream input. Its message names
// the file, the byte offset of the record (or block) at fault, the
// enclosing block and, for records, the record code:
//
//	k.bc: byte 1234: in FUNCTION_BLOCK: unknown record code 77
type Error struct {
	File   string // the file name given to the reader
	Offset int64  // byte offset in the file; -1 when not known
	Block  string // enclosing block ("FUNCTION_BLOCK"); "" at top level
	Code   int64  // record code; -1 when the error is not about a record
	Msg    string
}

func (e *Error) Error() string {
	var parts []string
	if e.File != "" {
		parts = append(parts, e.File)
	}
	if e.Offset >= 0 {
		parts = append(parts, "byte "+strconv.FormatInt(e.Offset, 10))
	}
	if e.Block != "" {
		parts = append(parts, "in "+e.Block)
	}
	msg := e.Msg
	if e.Code >= 0 && !strings.Contains(msg, "record code") {
		msg += " (record code " + strconv.FormatInt(e.Code, 10) + ")"
	}
	return strings.Join(append(parts, msg), ": ")
}

// failure is how a reader unwinds: a panic carrying *Error, recovered by
// Catch at the entry points of its users (and nowhere else).
type failure struct{ err *Error }

// Fail stops reading with an error at the current record.
func (d *Reader) Fail(format string, args ...any) {
	panic(failure{&Error{File: d.File, Offset: d.Base + d.RecPos, Block: d.BlockName(), Code: d.RecCode, Msg: fmt.Sprintf(format, args...)}})
}

// BlockName names the innermost entered block ("" at top level).
func (d *Reader) BlockName() string {
	if len(d.Blocks) == 0 {
		return ""
	}
	return d.name(d.Blocks[len(d.Blocks)-1])
}

func (d *Reader) name(id uint64) string {
	if n, ok := d.Names[id]; ok {
		return n
	}
	return "block " + strconv.FormatUint(id, 10)
}

// Catch, deferred, turns a reader's failure into *err; other panics
// propagate.
func Catch(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}
