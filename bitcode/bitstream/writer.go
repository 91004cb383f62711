package bitstream

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// The LLVM bitstream container, written (llvm/docs/BitCodeFormat.rst): a
// stream of 32-bit little-endian words filled from their least significant
// bit, holding nested blocks of records. A Writer builds the stream in
// memory except for file blobs (device images, manifests): those are
// recorded by name and size and copied into the output only by WriteTo, so
// that an image of any size is never held in memory. Block lengths are
// known before the first byte goes out, so WriteTo writes front to back in
// one pass and its writer may be a pipe.

// firstAbbrev is the ID of the first abbreviation a block defines; the
// IDs below it are EndBlock, EnterSubblock, DefineAbbrev and
// UnabbrevRecord.
const firstAbbrev = 4

// AbbrevEncoding is how an abbreviation operand is encoded
// (BitCodeAbbrevOp::Encoding; 0 is used here for a literal).
type AbbrevEncoding uint8

const (
	AbbrevLiteral AbbrevEncoding = 0 // a constant value, not written
	AbbrevFixed   AbbrevEncoding = 1 // Width bits
	AbbrevVBR     AbbrevEncoding = 2 // variable-width chunks of Width bits
	AbbrevArray   AbbrevEncoding = 3 // a vbr6 count, then elements encoded as the next operand
	AbbrevChar6   AbbrevEncoding = 4 // 6 bits from [a-zA-Z0-9._]
	AbbrevBlob    AbbrevEncoding = 5 // a vbr6 size, 32-bit alignment, the bytes, 32-bit alignment
)

// AbbrevOp is one operand of an abbreviation: a literal value, or an
// encoding with its width (Fixed and VBR).
type AbbrevOp struct {
	Encoding AbbrevEncoding
	Value    uint64 // the literal's value, or the width of Fixed and VBR
}

// Literal, Fixed, VBR, Array, Char6 and Blob make abbreviation operands.
func Literal(v uint64) AbbrevOp   { return AbbrevOp{AbbrevLiteral, v} }
func Fixed(width uint64) AbbrevOp { return AbbrevOp{AbbrevFixed, width} }
func VBR(width uint64) AbbrevOp   { return AbbrevOp{AbbrevVBR, width} }
func Array() AbbrevOp             { return AbbrevOp{AbbrevArray, 0} }
func Char6() AbbrevOp             { return AbbrevOp{AbbrevChar6, 0} }
func Blob() AbbrevOp              { return AbbrevOp{AbbrevBlob, 0} }

// MaxBlobSize is the largest blob a reader accepts: LLVM reads the size
// into 32 bits.
const MaxBlobSize = 1<<32 - 1

// BlobFile is a blob whose bytes are the first Size bytes of the file
// called Name, read only while the stream is written out.
type BlobFile struct {
	Name string
	Size uint64
}

// Writer builds a bitstream. Its methods record the first error and
// do nothing after it; WriteTo (or Err) returns it.
type Writer struct {
	chunks  []chunk // finished chunks; buf follows them
	buf     []byte  // whole bytes of the current chunk
	done    uint64  // bytes in chunks
	cur     uint64  // pending bits, least significant first
	nbits   uint    // number of pending bits (< 64 between calls; 0 after align32)
	width   uint    // abbreviation ID width of the current block
	blocks  []openBlock
	abbrevs [][]AbbrevOp // the current block's abbreviations, from firstAbbrev
	err     error

	// info is the abbreviations a BLOCKINFO block gave blocks of an ID:
	// every such block starts with them. infoBID is the block ID the
	// BLOCKINFO block being written names now (-1 for none yet).
	info    map[uint64][][]AbbrevOp
	infoBID int64

	// CopyFile copies exactly n bytes of the file called name to w, or
	// fails (internal/filecopy.CopyN): the stream opens no file itself.
	// Only a stream holding a BlobFile needs it.
	CopyFile func(w io.Writer, name string, n uint64) error
}

// chunk is part of the output: bytes, or a file's first n bytes.
type chunk struct {
	data []byte
	file string
	n    uint64
}

// openBlock is a block being written: where its length word is, and the
// state of its parent to restore at its end.
type openBlock struct {
	lenChunk   int    // index of the chunk holding the length word (len(chunks) means buf)
	lenOff     int    // offset of the length word in that chunk
	lenPos     uint64 // stream offset just after the length word
	id         uint64
	outerWidth uint
	outerAbbrs [][]AbbrevOp
}

// NewWriter returns a writer at the start of a stream, outside any
// block (abbreviation width 2).
func NewWriter() *Writer {
	return &Writer{width: 2}
}

// Grow makes room for n more bytes of output, so that a writer told the
// stream's size roughly does not copy it while it grows.
func (w *Writer) Grow(n int) {
	if n > cap(w.buf)-len(w.buf) {
		b := make([]byte, len(w.buf), len(w.buf)+n)
		copy(b, w.buf)
		w.buf = b
	}
}

// Err returns the first error met.
func (w *Writer) Err() error { return w.err }

func (w *Writer) fail(format string, a ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("bitcode: "+format, a...)
	}
}

// pos returns the number of whole bytes written so far (pending bits not
// counted).
func (w *Writer) pos() uint64 { return w.done + uint64(len(w.buf)) }

// emit writes the low n bits of v (n ≤ 64). Bits gather in cur and go
// out 64 at a time.
func (w *Writer) emit(v uint64, n uint) {
	v &= 1<<n - 1
	w.cur |= v << w.nbits // the bits past 64 are lost here, and kept below
	w.nbits += n
	if w.nbits >= 64 {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, w.cur)
		w.nbits -= 64
		w.cur = v >> (n - w.nbits)
	}
}

// emitVBR writes v in chunks of n-1 value bits and a continuation bit.
func (w *Writer) emitVBR(v uint64, n uint) {
	hi := uint64(1) << (n - 1)
	for v >= hi {
		w.emit(v&(hi-1)|hi, n)
		v >>= n - 1
	}
	w.emit(v, n)
}

// align32 pads with zero bits to a 32-bit boundary and writes out every
// pending bit, so that buf ends where the stream does.
func (w *Writer) align32() {
	if w.nbits == 0 {
		return
	}
	if w.nbits > 32 {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, w.cur)
	} else {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(w.cur))
	}
	w.cur, w.nbits = 0, 0
}

// Magic writes the four bytes that start an LLVM IR bitcode file, 'BC'
// 0xC0DE.
func (w *Writer) Magic() {
	for _, b := range []byte{'B', 'C', 0xC0, 0xDE} {
		w.emit(uint64(b), 8)
	}
}

// EnterBlock starts a block with ID id whose abbreviation IDs are width
// bits wide; its length is filled in by ExitBlock.
func (w *Writer) EnterBlock(id uint64, width uint) {
	if w.err != nil {
		return
	}
	if width < 2 || width > 32 {
		w.fail("block %d: abbreviation width %d out of range [2, 32]", id, width)
		return
	}
	w.emit(EnterSubblock, w.width)
	w.emitVBR(id, 8)
	w.emitVBR(uint64(width), 4)
	w.align32()
	b := openBlock{lenChunk: len(w.chunks), lenOff: len(w.buf), outerWidth: w.width, outerAbbrs: w.abbrevs, id: id}
	w.buf = append(w.buf, 0, 0, 0, 0) // the block's length in words, filled in by ExitBlock
	b.lenPos = w.pos()
	w.blocks = append(w.blocks, b)
	w.width, w.abbrevs = width, nil
	if id == BlockInfoBlockID {
		w.infoBID = -1
	}
	if bi := w.info[id]; len(bi) > 0 {
		// A full slice: an abbreviation the block defines itself must
		// not land in the shared list.
		w.abbrevs = bi[:len(bi):len(bi)]
	}
}

// InfoAbbrev defines, inside a BLOCKINFO block (EnterBlock with
// BlockInfoBlockID), an abbreviation that every later block with ID
// blockID starts with, and returns the ID it has there: LLVM's writer
// defines its function block abbreviations so, once per module rather
// than once per function.
func (w *Writer) InfoAbbrev(blockID uint64, ops ...AbbrevOp) uint64 {
	if w.err != nil {
		return 0
	}
	if len(w.blocks) == 0 || w.blocks[len(w.blocks)-1].id != BlockInfoBlockID {
		w.fail("block info abbreviation outside a BLOCKINFO block")
		return 0
	}
	if err := checkAbbrev(ops); err != nil {
		w.fail("%v", err)
		return 0
	}
	if w.infoBID != int64(blockID) {
		w.Record(BlockInfoCodeSetBID, blockID)
		w.infoBID = int64(blockID)
	}
	w.emitAbbrevDef(ops)
	if w.info == nil {
		w.info = map[uint64][][]AbbrevOp{}
	}
	w.info[blockID] = append(w.info[blockID], ops)
	return uint64(firstAbbrev + len(w.info[blockID]) - 1)
}

// ExitBlock ends the innermost block.
func (w *Writer) ExitBlock() {
	if w.err != nil {
		return
	}
	if len(w.blocks) == 0 {
		w.fail("end of block outside any block")
		return
	}
	w.emit(EndBlock, w.width)
	w.align32()
	b := w.blocks[len(w.blocks)-1]
	w.blocks = w.blocks[:len(w.blocks)-1]
	words := (w.pos() - b.lenPos) / 4
	if words > 1<<32-1 {
		w.fail("block of %d words: a block holds at most 2^32-1", words)
		return
	}
	lenWord := w.buf
	if b.lenChunk < len(w.chunks) {
		lenWord = w.chunks[b.lenChunk].data
	}
	binary.LittleEndian.PutUint32(lenWord[b.lenOff:], uint32(words))
	w.width, w.abbrevs = b.outerWidth, b.outerAbbrs
}

// DefineAbbrev defines an abbreviation in the current block and returns its
// ID. The first operand is the record code (usually a literal).
func (w *Writer) DefineAbbrev(ops ...AbbrevOp) uint64 {
	if w.err != nil {
		return 0
	}
	if len(w.blocks) == 0 {
		w.fail("abbreviation defined outside any block")
		return 0
	}
	if err := checkAbbrev(ops); err != nil {
		w.fail("%v", err)
		return 0
	}
	w.emitAbbrevDef(ops)
	w.abbrevs = append(w.abbrevs, ops)
	id := uint64(firstAbbrev + len(w.abbrevs) - 1)
	if id >= 1<<w.width {
		w.fail("abbreviation %d does not fit the block's %d-bit abbreviation IDs", id, w.width)
	}
	return id
}

// emitAbbrevDef writes a DEFINE_ABBREV record of ops.
func (w *Writer) emitAbbrevDef(ops []AbbrevOp) {
	w.emit(DefineAbbrev, w.width)
	w.emitVBR(uint64(len(ops)), 5)
	for _, op := range ops {
		if op.Encoding == AbbrevLiteral {
			w.emit(1, 1)
			w.emitVBR(op.Value, 8)
			continue
		}
		w.emit(0, 1)
		w.emit(uint64(op.Encoding), 3)
		if op.Encoding == AbbrevFixed || op.Encoding == AbbrevVBR {
			w.emitVBR(op.Value, 5)
		}
	}
}

// checkAbbrev reports an abbreviation LLVM would refuse: widths out of
// range, an array or blob that is not last, an array without exactly one
// element operand.
func checkAbbrev(ops []AbbrevOp) error {
	if len(ops) == 0 {
		return fmt.Errorf("an abbreviation needs at least the record code")
	}
	for i, op := range ops {
		switch op.Encoding {
		case AbbrevLiteral, AbbrevChar6:
		case AbbrevFixed, AbbrevVBR:
			if op.Value > 32 || (op.Encoding == AbbrevVBR && op.Value < 2) {
				return fmt.Errorf("abbreviation operand %d: width %d out of range", i, op.Value)
			}
		case AbbrevArray:
			if i != len(ops)-2 || ops[i+1].Encoding == AbbrevArray || ops[i+1].Encoding == AbbrevBlob || ops[i+1].Encoding == AbbrevLiteral {
				return fmt.Errorf("abbreviation operand %d: an array must be followed by exactly one element encoding, last", i)
			}
		case AbbrevBlob:
			if i != len(ops)-1 {
				return fmt.Errorf("abbreviation operand %d: a blob must be last", i)
			}
		default:
			return fmt.Errorf("abbreviation operand %d: unknown encoding %d", i, op.Encoding)
		}
	}
	return nil
}

// Record writes an unabbreviated record: code, then each operand as vbr6.
func (w *Writer) Record(code uint64, ops ...uint64) {
	if w.err != nil {
		return
	}
	w.emit(UnabbrevRecord, w.width)
	w.emitVBR(code, 6)
	w.emitVBR(uint64(len(ops)), 6)
	for _, v := range ops {
		w.emitVBR(v, 6)
	}
}

// AbbrevRecord writes a record with abbreviation abbrev: vals holds the
// values of its non-literal operands in order (the code too, when the
// abbreviation does not give it as a literal), array elements last (an
// array takes every value left). blob and file are the bytes of a blob operand: at most
// one of them is set, and only when the abbreviation ends with a blob.
func (w *Writer) AbbrevRecord(abbrev uint64, vals []uint64, blob []byte, file *BlobFile) {
	ops := w.abbrevOps(abbrev)
	if ops == nil {
		return
	}
	hasBlob := ops[len(ops)-1].Encoding == AbbrevBlob
	if !hasBlob && (blob != nil || file != nil) {
		w.fail("abbreviation %d has no blob operand", abbrev)
		return
	}
	// Every value is checked against its operand as it is written. A
	// record that fails leaves bits behind, but the error is the stream's:
	// nothing is written out after it. A blob, last, is written only when
	// the values are all there.
	w.emit(abbrev, w.width)
	k := 0
	for j := 0; j < len(ops); j++ {
		op := ops[j]
		switch op.Encoding {
		case AbbrevLiteral:
		case AbbrevArray:
			el := ops[j+1]
			w.emitVBR(uint64(len(vals)-k), 6)
			for ; k < len(vals); k++ {
				if err := w.checkedScalar(el, vals[k]); err != nil {
					w.fail("abbreviation %d: array element %d: %v", abbrev, k, err)
					return
				}
			}
			j++
		case AbbrevBlob:
			if k != len(vals) {
				break // refused below
			}
			w.blob(blob, file)
		default:
			if k >= len(vals) {
				w.fail("abbreviation %d: %d values for more operands", abbrev, len(vals))
				return
			}
			if err := w.checkedScalar(op, vals[k]); err != nil {
				w.fail("abbreviation %d: operand %d: %v", abbrev, j, err)
				return
			}
			k++
		}
	}
	if k != len(vals) {
		w.fail("abbreviation %d: %d values for %d operands", abbrev, len(vals), k)
	}
}

// checkedScalar writes v with op, or returns why it cannot.
func (w *Writer) checkedScalar(op AbbrevOp, v uint64) error {
	switch op.Encoding {
	case AbbrevFixed:
		if op.Value < 64 && v>>op.Value != 0 {
			return checkScalar(op, v)
		}
		w.emit(v, uint(op.Value))
	case AbbrevVBR:
		w.emitVBR(v, uint(op.Value))
	case AbbrevChar6:
		c, ok := toChar6(v)
		if !ok {
			return checkScalar(op, v)
		}
		w.emit(c, 6)
	}
	return nil
}

// TextRecord writes a record of abbreviation abbrev, which must be
// [literal code, Fixed or VBR, array of Fixed(8), Fixed(7) or Char6]: v,
// then the bytes of s as the array (the shape of LLVM's value symbol table
// entries), without the values made into a slice first. A byte the
// array's elements cannot hold is the stream's error: nothing is written out.
func (w *Writer) TextRecord(abbrev, v uint64, s string) {
	el, ok := w.textHead(abbrev, v)
	if !ok {
		return
	}
	if err := w.textArray(el, s); err != nil {
		w.fail("abbreviation %d: %v", abbrev, err)
	}
}

// Text is a text record's array operand encoded once, to be written in
// many streams (EncodedTextRecord): its length and elements as element
// operand El writes them, N bits, the first in the low bit of Bits[0].
type Text struct {
	El   AbbrevOp
	N    uint
	Bits []byte
}

// EncodeText encodes s as the array operand of a text record whose
// elements are el, its bits appended to dst (Text.Bits), or returns why a
// byte of s does not fit el.
func EncodeText(el AbbrevOp, s string, dst []byte) (Text, error) {
	var e Writer
	e.buf = dst
	if err := e.textArray(el, s); err != nil {
		return Text{}, err
	}
	n := uint(len(e.buf)-len(dst))*8 + e.nbits
	for i := uint(0); i < e.nbits; i += 8 {
		e.buf = append(e.buf, byte(e.cur>>i))
	}
	return Text{El: el, N: n, Bits: e.buf[len(dst):]}, nil
}

// EncodedTextRecord writes what TextRecord(abbrev, v, s) writes, for
// t = EncodeText(el, s, ...), where el must be abbrev's element operand.
func (w *Writer) EncodedTextRecord(abbrev, v uint64, t Text) {
	el, ok := w.textHead(abbrev, v)
	if !ok {
		return
	}
	if el != t.El || uint(len(t.Bits)) != (t.N+7)/8 {
		w.fail("abbreviation %d: a text encoded for other elements", abbrev)
		return
	}
	b, n := t.Bits, t.N
	for ; n >= 64; n -= 64 {
		w.emit(binary.LittleEndian.Uint64(b), 64)
		b = b[8:]
	}
	var rest uint64
	for i := range b {
		rest |= uint64(b[i]) << (8 * i)
	}
	w.emit(rest, n)
}

// textHead checks that abbrev is a text record's abbreviation, writes the
// record's abbreviation ID and v, and returns its array's element
// operand; ok is false after an error.
func (w *Writer) textHead(abbrev, v uint64) (el AbbrevOp, ok bool) {
	ops := w.abbrevOps(abbrev)
	if ops == nil {
		return el, false
	}
	if len(ops) != 4 || ops[0].Encoding != AbbrevLiteral || ops[2].Encoding != AbbrevArray ||
		(ops[1].Encoding != AbbrevFixed && ops[1].Encoding != AbbrevVBR) {
		w.fail("abbreviation %d is not [literal, scalar, array]", abbrev)
		return el, false
	}
	w.emit(abbrev, w.width)
	if err := w.checkedScalar(ops[1], v); err != nil {
		w.fail("abbreviation %d: operand 1: %v", abbrev, err)
		return el, false
	}
	return ops[3], true
}

// textArray writes the bytes of s as an array of el elements: its length,
// then the elements, or returns why a byte does not fit el.
func (w *Writer) textArray(el AbbrevOp, s string) error {
	w.emitVBR(uint64(len(s)), 6)
	char6 := el.Encoding == AbbrevChar6
	width := uint(0) // of each element: 8, 7 or 6 bits
	switch {
	case el.Encoding == AbbrevFixed && el.Value <= 8:
		width = uint(el.Value)
	case char6:
		width = 6
	}
	if width == 0 {
		for k := 0; k < len(s); k++ {
			if err := w.checkedScalar(el, uint64(s[k])); err != nil {
				return fmt.Errorf("array element %d: %v", k, err)
			}
		}
		return nil
	}
	// Names are most of what a value symbol table holds: as many
	// elements as fit 32 bits are written at once (the first in the low
	// bits, as one at a time would write them).
	per := 32 / width
	for k := 0; k < len(s); {
		var bits uint64
		n := min(per, uint(len(s)-k))
		for j := uint(0); j < n; j++ {
			c := uint64(s[k+int(j)])
			if char6 {
				c = uint64(char6Code[c])
			}
			if c>>width != 0 {
				return fmt.Errorf("array element %d: %v", k+int(j), checkScalar(el, uint64(s[k+int(j)])))
			}
			bits |= c << (j * width)
		}
		w.emit(bits, n*width)
		k += int(n)
	}
	return nil
}

// char6Code is each byte's char6 code, noChar6 where it has none.
var char6Code = func() (t [256]byte) {
	for c := range t {
		code, ok := toChar6(uint64(c))
		t[c] = byte(code)
		if !ok {
			t[c] = noChar6
		}
	}
	return t
}()

const noChar6 = 0xff

// abbrevOps returns the operands of the current block's abbreviation
// abbrev; nil after an error, or when there is none (an error).
func (w *Writer) abbrevOps(abbrev uint64) []AbbrevOp {
	if w.err != nil {
		return nil
	}
	i := int(abbrev) - firstAbbrev
	if abbrev < firstAbbrev || i >= len(w.abbrevs) {
		w.fail("record with undefined abbreviation %d", abbrev)
		return nil
	}
	return w.abbrevs[i]
}

// checkScalar reports whether v can be written with op: why not, or nil.
func checkScalar(op AbbrevOp, v uint64) error {
	switch op.Encoding {
	case AbbrevFixed:
		if op.Value < 64 && v>>op.Value != 0 {
			return fmt.Errorf("%d does not fit %d bits", v, op.Value)
		}
	case AbbrevChar6:
		if _, ok := toChar6(v); !ok {
			return fmt.Errorf("%d is not a char6 character", v)
		}
	}
	return nil
}

// toChar6 returns the 6-bit code of character c ([a-z] 0-25, [A-Z] 26-51,
// [0-9] 52-61, '.' 62, '_' 63).
func toChar6(c uint64) (uint64, bool) {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 'a', true
	case c >= 'A' && c <= 'Z':
		return c - 'A' + 26, true
	case c >= '0' && c <= '9':
		return c - '0' + 52, true
	case c == '.':
		return 62, true
	case c == '_':
		return 63, true
	}
	return 0, false
}

// blob writes a blob operand: its size, alignment, the bytes (of blob, or
// of file, recorded as a chunk of its own), alignment.
func (w *Writer) blob(blob []byte, file *BlobFile) {
	n := uint64(len(blob))
	if file != nil {
		n = file.Size
	}
	if n > MaxBlobSize {
		w.fail("blob of %d bytes: a blob holds at most %d", n, uint64(MaxBlobSize))
		return
	}
	w.emitVBR(n, 6)
	w.align32()
	if file == nil {
		w.buf = append(w.buf, blob...)
	} else if n > 0 {
		w.chunks = append(w.chunks, chunk{data: w.buf}, chunk{file: file.Name, n: n})
		w.done += uint64(len(w.buf)) + n
		w.buf = nil
	}
	if pad := (4 - n%4) % 4; pad > 0 {
		w.buf = append(w.buf, make([]byte, pad)...)
	}
}

// Size returns the size in bytes of the stream written so far, once it is
// at a 32-bit boundary (after a block's end).
func (w *Writer) Size() uint64 { return w.pos() }

// Bytes returns the stream when it is all in memory (no file was
// recorded as a blob) and every block is closed: the writer's own buffer,
// not a copy. ok is false when WriteTo is needed.
func (w *Writer) Bytes() (b []byte, ok bool, err error) {
	if w.err != nil {
		return nil, false, w.err
	}
	if len(w.blocks) > 0 {
		return nil, false, fmt.Errorf("bitcode: %d blocks left open", len(w.blocks))
	}
	if len(w.chunks) > 0 {
		return nil, false, nil
	}
	w.align32()
	return w.buf, true, nil
}

// WriteTo writes the stream to out: every block must be closed. Files are
// copied as they are; one that is shorter or longer than when it was
// recorded is an error.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	if len(w.blocks) > 0 {
		return 0, fmt.Errorf("bitcode: %d blocks left open", len(w.blocks))
	}
	w.align32()
	if len(w.chunks) == 0 {
		n, err := out.Write(w.buf)
		return int64(n), err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	var total int64
	put := func(c chunk) error {
		if c.file == "" {
			n, err := bw.Write(c.data)
			total += int64(n)
			return err
		}
		if err := bw.Flush(); err != nil { // lets io.Copy hand the copy to out
			return err
		}
		if w.CopyFile == nil {
			return fmt.Errorf("bitstream: the blob of %s needs Writer.CopyFile", c.file)
		}
		err := w.CopyFile(bw, c.file, c.n)
		if err == nil {
			total += int64(c.n)
		}
		return err
	}
	for _, c := range w.chunks {
		if err := put(c); err != nil {
			return total, err
		}
	}
	if err := put(chunk{data: w.buf}); err != nil {
		return total, err
	}
	return total, bw.Flush()
}
