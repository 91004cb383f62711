package llvmir

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

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

// defaultDataLayout returns LLVM's defaults (LangRef "Data Layout"):
// e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:32:64-f16:16:16-
// f32:32:32-f64:64:64-f128:128:128-v64:64:64-v128:128:128-a:0:64.
func defaultDataLayout() *DataLayout {
	return &DataLayout{
		ints: []alignSpec{{1, 1, 1}, {8, 1, 1}, {16, 2, 2}, {32, 4, 4}, {64, 4, 8}},
		floats: []alignSpec{
			{16, 2, 2}, {32, 4, 4}, {64, 8, 8}, {128, 16, 16},
		},
		vectors: []alignSpec{{64, 8, 8}, {128, 16, 16}},
		ptrs:    []ptrSpec{{as: 0, bits: 64, abi: 8, pref: 8, idxBits: 64}},
		aggABI:  1,
		aggPref: 8,
	}
}

// ParseDataLayout parses a data layout string. Specifications it does not
// mention keep LLVM's defaults.
func ParseDataLayout(s string) (*DataLayout, error) {
	dl := defaultDataLayout()
	dl.Text = s
	if s == "" {
		return dl, nil
	}
	for _, item := range strings.Split(s, "-") {
		if err := dl.parseItem(item); err != nil {
			return nil, fmt.Errorf("invalid data layout %q: %s: %v", s, item, err)
		}
	}
	return dl, nil
}

func parseBits(s string) (uint64, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, errors.New("invalid number " + strconv.Quote(s))
	}
	return v, nil
}

// parseAlignBits parses an alignment in bits into bytes.
func parseAlignBits(s string, allowZero bool) (uint64, error) {
	v, err := parseBits(s)
	if err != nil {
		return 0, err
	}
	if v == 0 && allowZero {
		return 0, nil
	}
	if v == 0 || v%8 != 0 || (v/8)&(v/8-1) != 0 {
		return 0, errors.New("alignment must be a power of two times 8 bits")
	}
	return v / 8, nil
}

func (dl *DataLayout) parseItem(item string) error {
	if item == "" {
		return errors.New("empty specification")
	}
	parts := strings.Split(item, ":")
	head := parts[0]
	if head == "" {
		return errors.New("missing specification letter")
	}
	switch head[0] {
	case 'e', 'E':
		if len(item) != 1 {
			return errors.New("unexpected characters")
		}
		dl.BigEndian = head[0] == 'E'
		return nil
	case 'S':
		v, err := parseAlignBits(head[1:], true)
		dl.StackAlign = v
		return err
	case 'P', 'A', 'G':
		v, err := parseBits(head[1:])
		if err != nil {
			return err
		}
		switch head[0] {
		case 'P':
			dl.ProgramAddrSpace = uint32(v)
		case 'A':
			dl.AllocaAddrSpace = uint32(v)
		default:
			dl.GlobalsAddrSpace = uint32(v)
		}
		return nil
	case 'F':
		return nil // function pointer alignment: no effect on data sizes
	case 'm':
		if len(parts) != 2 || len(parts[1]) != 1 {
			return errors.New("expected m:<mangling>")
		}
		dl.Mangling = parts[1][0]
		return nil
	case 'n':
		if head == "ni" {
			return nil // non-integral address spaces
		}
		return dl.parseNative(append([]string{head[1:]}, parts[1:]...))
	case 'p':
		return dl.parsePointer(head, parts)
	case 'a':
		return dl.parseAggregate(head, parts)
	case 'i', 'f', 'v':
		return dl.parseScalar(head, parts)
	}
	return errors.New("unknown specification")
}

// parseNative parses the widths of an "n<size>[:<size>]..." item.
func (dl *DataLayout) parseNative(widths []string) error {
	dl.NativeInts = dl.NativeInts[:0]
	for _, p := range widths {
		v, err := parseBits(p)
		if err != nil {
			return err
		}
		dl.NativeInts = append(dl.NativeInts, uint32(v))
	}
	return nil
}

// parsePointer parses a "p[n]:<size>:<abi>[:<pref>[:<idx>]]" item.
func (dl *DataLayout) parsePointer(head string, parts []string) error {
	var as uint64
	if len(head) > 1 {
		v, err := parseBits(head[1:])
		if err != nil {
			return err
		}
		as = v
	}
	if len(parts) < 3 || len(parts) > 5 {
		return errors.New("expected p[n]:<size>:<abi>[:<pref>[:<idx>]]")
	}
	size, err := parseBits(parts[1])
	if err != nil || size == 0 {
		return errors.New("invalid pointer size")
	}
	abi, err := parseAlignBits(parts[2], false)
	if err != nil {
		return err
	}
	pref, idx := abi, size
	if len(parts) > 3 {
		if pref, err = parseAlignBits(parts[3], false); err != nil {
			return err
		}
	}
	if len(parts) > 4 {
		if idx, err = parseBits(parts[4]); err != nil {
			return err
		}
	}
	dl.setPtr(ptrSpec{as: uint32(as), bits: uint32(size), abi: abi, pref: pref, idxBits: uint32(idx)})
	return nil
}

// parseAggregate parses an "a[<size>]:<abi>[:<pref>]" item.
func (dl *DataLayout) parseAggregate(head string, parts []string) error {
	if len(head) > 1 {
		if _, err := parseBits(head[1:]); err != nil {
			return err
		}
	}
	if len(parts) == 1 {
		return nil
	}
	abi, err := parseAlignBits(parts[1], true)
	if err != nil {
		return err
	}
	if abi == 0 {
		abi = 1
	}
	pref := abi
	if len(parts) > 2 {
		if pref, err = parseAlignBits(parts[2], true); err != nil {
			return err
		}
	}
	dl.aggABI, dl.aggPref = abi, pref
	return nil
}

// parseScalar parses an "i<size>", "f<size>" or "v<size>" item:
// "<letter><size>:<abi>[:<pref>]".
func (dl *DataLayout) parseScalar(head string, parts []string) error {
	var bits uint64
	if len(head) > 1 {
		v, err := parseBits(head[1:])
		if err != nil {
			return err
		}
		bits = v
	}
	if bits == 0 || len(parts) < 2 || len(parts) > 3 {
		return errors.New("expected " + head[:1] + "<size>:<abi>[:<pref>]")
	}
	abi, err := parseAlignBits(parts[1], false)
	if err != nil {
		return err
	}
	pref := abi
	if len(parts) > 2 {
		if pref, err = parseAlignBits(parts[2], false); err != nil {
			return err
		}
	}
	spec := alignSpec{bits: uint32(bits), abi: abi, pref: pref}
	switch head[0] {
	case 'i':
		dl.ints = setSpec(dl.ints, spec)
	case 'f':
		dl.floats = setSpec(dl.floats, spec)
	default:
		dl.vectors = setSpec(dl.vectors, spec)
	}
	return nil
}

func setSpec(specs []alignSpec, s alignSpec) []alignSpec {
	i := sort.Search(len(specs), func(i int) bool { return specs[i].bits >= s.bits })
	if i < len(specs) && specs[i].bits == s.bits {
		specs[i] = s
		return specs
	}
	specs = append(specs, alignSpec{})
	copy(specs[i+1:], specs[i:])
	specs[i] = s
	return specs
}

func (dl *DataLayout) setPtr(s ptrSpec) {
	for i := range dl.ptrs {
		if dl.ptrs[i].as == s.as {
			dl.ptrs[i] = s
			return
		}
	}
	dl.ptrs = append(dl.ptrs, s)
	sort.Slice(dl.ptrs, func(i, j int) bool { return dl.ptrs[i].as < dl.ptrs[j].as })
}

func (dl *DataLayout) ptr(as uint32) ptrSpec {
	for _, p := range dl.ptrs {
		if p.as == as {
			return p
		}
	}
	for _, p := range dl.ptrs {
		if p.as == 0 {
			return p
		}
	}
	return ptrSpec{bits: 64, abi: 8, pref: 8, idxBits: 64}
}

// PointerSize returns the size in bytes of a pointer in address space as.
func (dl *DataLayout) PointerSize(as uint32) uint64 { return (uint64(dl.ptr(as).bits) + 7) / 8 }

type unsizedError struct{ t *Type }

func (e unsizedError) Error() string { return "type " + e.t.String() + " has no size" }

// SizeInBits returns the size of t in bits (1 for i1, 80 for x86_fp80; a
// struct's or array's allocation size times 8).
func (dl *DataLayout) SizeInBits(t *Type) (uint64, error) {
	return dl.sizer().sizeInBits(t, 0)
}

// StoreSize returns the number of bytes a store of type t writes.
func (dl *DataLayout) StoreSize(t *Type) (uint64, error) {
	b, err := dl.SizeInBits(t)
	return (b + 7) / 8, err
}

// AllocSize returns the distance in bytes between consecutive values of
// type t in memory (the store size rounded up to the ABI alignment).
func (dl *DataLayout) AllocSize(t *Type) (uint64, error) {
	return dl.sizer().allocSize(t, 0)
}

// ABIAlign returns the ABI alignment of t in bytes.
func (dl *DataLayout) ABIAlign(t *Type) (uint64, error) {
	return dl.sizer().abiAlign(t, 0)
}

// Layout returns the memory layout of a struct type.
func (dl *DataLayout) Layout(t *Type) (*StructLayout, error) {
	return dl.sizer().layout(t, 0)
}

// sizer answers one size, alignment or layout question. It remembers what
// it computed for each aggregate type, so that a type that holds another
// several times (or an array of arrays) costs its size, not the number of
// paths through it, and it refuses types nested deeper than MaxNesting.
type sizer struct {
	dl    *DataLayout
	sizes map[*Type]sizeAlign
}

type sizeAlign struct{ bits, align uint64 }

func (dl *DataLayout) sizer() *sizer { return &sizer{dl: dl} }

func (s *sizer) sizeInBits(t *Type, depth int) (uint64, error) {
	switch t.Kind {
	case IntType:
		return uint64(t.Bits), nil
	case HalfType, BFloatType:
		return 16, nil
	case FloatType:
		return 32, nil
	case DoubleType, X86MMXType:
		return 64, nil
	case X86FP80Type:
		return 80, nil
	case FP128Type, PPCFP128Type:
		return 128, nil
	case X86AMXType:
		return 8192, nil
	case PtrType:
		return uint64(s.dl.ptr(t.AddrSpace).bits), nil
	case VectorType, ArrayType, StructType:
		sa, err := s.aggregate(t, depth)
		return sa.bits, err
	}
	return 0, unsizedError{t}
}

func (s *sizer) allocSize(t *Type, depth int) (uint64, error) {
	b, err := s.sizeInBits(t, depth)
	if err != nil {
		return 0, err
	}
	a, err := s.abiAlign(t, depth)
	if err != nil {
		return 0, err
	}
	return alignTo((b+7)/8, a), nil
}

func (s *sizer) abiAlign(t *Type, depth int) (uint64, error) {
	dl := s.dl
	switch t.Kind {
	case IntType:
		i := sort.Search(len(dl.ints), func(i int) bool { return dl.ints[i].bits >= t.Bits })
		if i == len(dl.ints) {
			i--
		}
		return dl.ints[i].abi, nil
	case HalfType, BFloatType, FloatType, DoubleType, X86FP80Type, FP128Type, PPCFP128Type:
		b, _ := s.sizeInBits(t, depth)
		for _, f := range dl.floats {
			if uint64(f.bits) == b {
				return f.abi, nil
			}
		}
		return powerOf2Ceil((b + 7) / 8), nil
	case PtrType:
		return dl.ptr(t.AddrSpace).abi, nil
	case X86MMXType:
		return s.vectorAlign(64), nil
	case X86AMXType:
		return 64, nil
	case VectorType, ArrayType, StructType:
		sa, err := s.aggregate(t, depth)
		return sa.align, err
	}
	return 0, unsizedError{t}
}

// vectorAlign is the ABI alignment of a vector of the given size.
func (s *sizer) vectorAlign(bits uint64) uint64 {
	for _, v := range s.dl.vectors {
		if uint64(v.bits) == bits {
			return v.abi
		}
	}
	return powerOf2Ceil((bits + 7) / 8)
}

// aggregate returns the size in bits and the ABI alignment of a vector,
// array or struct type, once per type.
func (s *sizer) aggregate(t *Type, depth int) (sizeAlign, error) {
	if sa, ok := s.sizes[t]; ok {
		return sa, nil
	}
	if depth > MaxNesting {
		return sizeAlign{}, errors.New("type " + t.String() + " is nested deeper than " + itoa(MaxNesting) + " levels")
	}
	var sa sizeAlign
	switch t.Kind {
	case VectorType:
		eb, err := s.sizeInBits(t.Elem, depth+1)
		if err != nil {
			return sa, err
		}
		sa.bits = eb * t.Len
		sa.align = s.vectorAlign(sa.bits)
	case ArrayType:
		es, err := s.allocSize(t.Elem, depth+1)
		if err != nil {
			return sa, err
		}
		if sa.align, err = s.abiAlign(t.Elem, depth+1); err != nil {
			return sa, err
		}
		sa.bits = es * t.Len * 8
	case StructType:
		l, err := s.layout(t, depth)
		if err != nil {
			return sa, err
		}
		sa.bits, sa.align = l.Size*8, 1
		if !t.Packed {
			sa.align = max(l.Align, s.dl.aggABI)
		}
	}
	if s.sizes == nil {
		s.sizes = map[*Type]sizeAlign{}
	}
	s.sizes[t] = sa
	return sa, nil
}

func (s *sizer) layout(t *Type, depth int) (*StructLayout, error) {
	if t.Kind != StructType {
		return nil, errors.New("type " + t.String() + " is not a struct")
	}
	if t.Opaque {
		return nil, errors.New("struct " + t.String() + " is opaque")
	}
	if depth > MaxNesting {
		return nil, errors.New("struct " + t.String() + " contains itself or is nested deeper than " + itoa(MaxNesting) + " levels")
	}
	l := &StructLayout{Align: 1, Offsets: make([]uint64, len(t.Fields))}
	for i, ft := range t.Fields {
		var a uint64 = 1
		var err error
		if !t.Packed {
			if a, err = s.abiAlign(ft, depth+1); err != nil {
				return nil, err
			}
		}
		l.Size = alignTo(l.Size, a)
		l.Align = max(l.Align, a)
		l.Offsets[i] = l.Size
		sz, err := s.allocSize(ft, depth+1)
		if err != nil {
			return nil, err
		}
		l.Size += sz
	}
	l.Size = alignTo(l.Size, l.Align)
	return l, nil
}

func alignTo(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

func powerOf2Ceil(v uint64) uint64 {
	if v <= 1 {
		return 1
	}
	return 1 << bits.Len64(v-1)
}
