package llvmir

// DataLayout is a parsed "target datalayout" string with LLVM's defaults
// for everything it does not specify (LangRef, "Data Layout").
type DataLayout struct {
	Text      string // the string as written ("" for the defaults)
	BigEndian bool
	// StackAlign, ProgramAddrSpace, GlobalsAddrSpace, AllocaAddrSpace and
	// Mangling are informational.
	StackAlign       uint64
	ProgramAddrSpace uint32
	GlobalsAddrSpace uint32
	AllocaAddrSpace  uint32
	Mangling         byte
	NativeInts       []uint32 // n8:16:32:64

	ints    []alignSpec // sorted by bit width
	floats  []alignSpec
	vectors []alignSpec
	ptrs    []ptrSpec // sorted by address space; address space 0 always present
	aggABI  uint64    // a:<abi>: in bytes (1 when 0)
	aggPref uint64
}

type alignSpec struct {
	bits      uint32
	abi, pref uint64 // bytes
}

type ptrSpec struct {
	as        uint32
	bits      uint32 // size in bits
	abi, pref uint64 // bytes
	idxBits   uint32
}

// StructLayout is the memory layout of a struct type.
type StructLayout struct {
	Size    uint64   // alloc size in bytes, tail padding included
	Align   uint64   // ABI alignment in bytes
	Offsets []uint64 // byte offset of each element
}
