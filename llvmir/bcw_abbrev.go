package llvmir

import (
	"math/bits"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// bcFnAbbrevs are the abbreviations of the commonest instruction records,
// defined once per module in a BLOCKINFO block for every function block,
// as LLVM's writer does: a binary operator takes 20 bits instead of 34,
// and the writer emits four values instead of six. A record whose shape
// they do not fit (a forward reference, which carries its type; a value
// too wide for a field) is written unabbreviated, which any reader reads
// the same.
type bcFnAbbrevs struct {
	load, binop, binopFlags, cast, retVoid, retVal, unreachable, gep uint64
	typeBits                                                         uint
}

// writeBlockInfo writes the BLOCKINFO block with the function block's
// abbreviations; the type table must be complete (type fields are as
// wide as its largest number).
func (a *bcw) writeBlockInfo() {
	if len(a.funcs) == 0 {
		return
	}
	s, ab := a.s, &a.fnAbbrevs
	ab.typeBits = uint(max(1, bits.Len(uint(len(a.tys.list)))))
	tb := uint64(ab.typeBits)
	lit, fixed, vbr := bitstream.Literal, bitstream.Fixed, bitstream.VBR
	const fn = bitcode.FunctionBlockID
	s.EnterBlock(bitstream.BlockInfoBlockID, 2)
	ab.load = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstLoad), vbr(6), fixed(tb), vbr(4), fixed(1))
	ab.binop = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstBinop), vbr(6), vbr(6), fixed(4))
	ab.binopFlags = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstBinop), vbr(6), vbr(6), fixed(4), fixed(8))
	ab.cast = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstCast), vbr(6), fixed(tb), fixed(4))
	ab.retVoid = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstRet))
	ab.retVal = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstRet), vbr(6))
	ab.unreachable = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstUnreachable))
	ab.gep = s.InfoAbbrev(fn, lit(bitcode.FuncCodeInstGEP), vbr(4), fixed(tb), bitstream.Array(), vbr(6))
	s.ExitBlock()
}

// instRecord writes one instruction's record, abbreviated when one of
// bcFnAbbrevs fits it; fwd says that an operand is a forward reference
// (its type is in the record).
func (a *bcw) instRecord(code uint64, vals []uint64, fwd bool) {
	s, ab := a.s, &a.fnAbbrevs
	if id := ab.pick(code, vals, fwd); id != 0 {
		s.AbbrevRecord(id, vals, nil, nil)
		return
	}
	s.Record(code, vals...)
}

// pick returns the abbreviation for the record, 0 for none.
func (ab *bcFnAbbrevs) pick(code uint64, vals []uint64, fwd bool) uint64 {
	if fwd || ab.typeBits == 0 {
		return 0
	}
	fits := func(v uint64, n uint) bool { return v>>n == 0 }
	switch n := len(vals); code {
	case bitcode.FuncCodeInstLoad:
		if n == 4 && fits(vals[1], ab.typeBits) && vals[3] <= 1 {
			return ab.load
		}
	case bitcode.FuncCodeInstBinop:
		if n == 3 && fits(vals[2], 4) {
			return ab.binop
		}
		if n == 4 && fits(vals[2], 4) && fits(vals[3], 8) {
			return ab.binopFlags
		}
	case bitcode.FuncCodeInstCast:
		if n == 3 && fits(vals[1], ab.typeBits) && fits(vals[2], 4) {
			return ab.cast
		}
	case bitcode.FuncCodeInstRet:
		return []uint64{ab.retVoid, ab.retVal, 0}[min(n, 2)]
	case bitcode.FuncCodeInstUnreachable:
		if n == 0 {
			return ab.unreachable
		}
	case bitcode.FuncCodeInstGEP:
		if n >= 2 && fits(vals[1], ab.typeBits) {
			return ab.gep
		}
	}
	return 0
}
