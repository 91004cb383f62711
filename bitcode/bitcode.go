// Package bitcode reads LLVM bitcode (.bc) and renders it as textual LLVM
// IR, with no LLVM installation: the module as the LLVM version that wrote
// it would print it (typed pointers for typed-pointer bitcode, ptr for
// opaque), so that the llvmir package and that version's llvm-as read it.
//
// The bitstream container (blocks, abbreviations, BLOCKINFO, blobs) is
// package bitstream's, read and written; this package gives its blocks and
// records their LLVM meaning. The reader covers what LLVM 14 to 22 write:
// the wrapper header, the module's
// header, types, attributes, globals, constants, metadata (including debug
// information), function bodies, debug records and value names. Records a
// version does not know are reported as an *Error naming the file, the
// byte offset, the block and the record code; no input makes it panic.
package bitcode

import (
	"bytes"
	"encoding/binary"

	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

const (
	wrapperMagic = 0x0B17C0DE
)

// Is reports whether data is LLVM bitcode: the raw magic "BC" 0xC0DE or
// the wrapper header 0x0B17C0DE.
func Is(data []byte) bool {
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == wrapperMagic {
		return true
	}
	return len(data) >= 4 && data[0] == 'B' && data[1] == 'C' && data[2] == 0xC0 && data[3] == 0xDE
}

// unwrap returns the bitcode inside data and its offset in data.
func unwrap(file string, data []byte) ([]byte, int64, error) {
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == wrapperMagic {
		if len(data) < 20 {
			return nil, 0, &Error{File: file, Offset: 0, Code: -1, Msg: "truncated bitcode wrapper header"}
		}
		off := binary.LittleEndian.Uint32(data[8:])
		size := binary.LittleEndian.Uint32(data[12:])
		if uint64(off)+uint64(size) > uint64(len(data)) {
			return nil, 0, &Error{File: file, Offset: 8, Code: -1, Msg: "bitcode wrapper offset and size run past the end of the file"}
		}
		data = data[off : off+size]
		if !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
			return nil, 0, &Error{File: file, Offset: int64(off), Code: -1, Msg: "not LLVM bitcode (bad magic inside the wrapper)"}
		}
		return data, int64(off), nil
	}
	if !bytes.HasPrefix(data, []byte("BC\xc0\xde")) {
		return nil, 0, &Error{File: file, Offset: 0, Code: -1, Msg: "not LLVM bitcode (bad magic)"}
	}
	return data, 0, nil
}

// Info returns the producer string of the IDENTIFICATION block ("LLVM15.0.6")
// and the module's target triple, reading no further than the triple.
// Either is "" when the file does not hold it.
func Info(data []byte) (producer, triple string, err error) {
	defer bitstream.Catch(&err)
	bc, base, err := unwrap("", data)
	if err != nil {
		return "", "", err
	}
	d := newDecoder("", bc, base)
	for d.Pos+36 <= d.NBits {
		d.RecPos = int64(d.Pos / 8)
		if d.Bits(2) != EnterSubblock {
			break
		}
		id := d.VBR(8)
		switch id {
		case IdentificationBlockID:
			d.producer = d.parseIdentification()
		case ModuleBlockID:
			b := d.EnterBlock(id)
			for d.NextRecord(b) {
				if d.Code == ModuleCodeTriple {
					return d.producer, opsString(d.Ops), nil
				}
			}
			d.Leave()
			return d.producer, "", nil
		default:
			d.SkipBlock(id)
		}
	}
	return d.producer, "", nil
}

// Disassemble renders the bitcode module in data (file names it in
// errors) as textual LLVM IR.
func Disassemble(file string, data []byte) (out []byte, err error) {
	defer bitstream.Catch(&err)
	bc, base, err := unwrap(file, data)
	if err != nil {
		return nil, err
	}
	d := newDecoder(file, bc, base)
	d.readTopLevel()
	return d.out, nil
}

func newDecoder(file string, data []byte, base int64) *decoder {
	d := &decoder{
		Reader:     bitstream.NewReader(file, data, base, blockNames),
		attrGroups: map[uint64]*attrGroup{},
	}
	// Output may exceed the input many times over (a constant expression
	// used in many places prints in each), but not without bound.
	d.budget = 1<<26 + 256*int64(len(data))
	return d
}

// charge counts n bytes of output against the budget.
func (d *decoder) charge(n int) {
	d.budget -= int64(n)
	if d.budget < 0 {
		d.failf("output would exceed %d times the input's size", 256)
	}
}

func (d *decoder) parseIdentification() string {
	b := d.EnterBlock(IdentificationBlockID)
	var p string
	for d.NextRecord(b) {
		if d.Code == IdentificationCodeString {
			p = opsString(d.Ops)
		}
	}
	d.Leave()
	return p
}

// readTopLevel finds the top-level blocks (the string table follows the
// module it serves), then decodes the module.
func (d *decoder) readTopLevel() {
	var modulePos uint64
	haveModule := false
	for d.Pos+36 <= d.NBits {
		d.RecPos = int64(d.Pos / 8)
		a := d.Bits(2)
		if a != EnterSubblock {
			// Trailing padding (a wrapper rounds the size up) is zeros.
			if a == 0 && allZero(d.Data[d.Pos/8:]) {
				break
			}
			d.failf("expected a block at top level")
		}
		id := d.VBR(8)
		switch id {
		case IdentificationBlockID:
			d.producer = d.parseIdentification()
		case ModuleBlockID:
			if haveModule {
				d.failf("more than one module in the file")
			}
			haveModule = true
			modulePos = d.Pos
			d.SkipBlock(id)
		case StrtabBlockID:
			d.strtab = d.parseStrtab()
		case BlockInfoBlockID:
			d.ReadBlockInfo()
		default:
			d.SkipBlock(id)
		}
	}
	if !haveModule {
		d.RecPos = int64(len(d.Data))
		d.failf("no module in the file")
	}
	d.Pos = modulePos
	d.parseModule()
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (d *decoder) parseStrtab() []byte {
	b := d.EnterBlock(StrtabBlockID)
	var s []byte
	for d.NextRecord(b) {
		if d.Code == StrtabBlob {
			s = d.Blob
		}
	}
	d.Leave()
	return s
}
