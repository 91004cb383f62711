package bitcode

import (
	"fmt"
	"io"
	"math/bits"
)

// A small LLVM module model and its bitcode writer: what a module of global
// data and a few calls needs (opaque pointers, integers, arrays, structs,
// globals with initializers, constant expressions, functions made of calls
// and a return). The bitcode is module version 2 (names in a string table),
// with opaque pointer types: LLVM 15 and newer read it. The same module
// always gives the same bytes.

// Linkage is a global value's linkage, as bitcode encodes it.
type Linkage uint64

const (
	ExternalLinkage  Linkage = 0
	AppendingLinkage Linkage = 2
	InternalLinkage  Linkage = 3
	PrivateLinkage   Linkage = 9
)

// UnnamedAddr is a global value's unnamed_addr, as bitcode encodes it.
type UnnamedAddr uint64

const (
	NoUnnamedAddr     UnnamedAddr = 0
	GlobalUnnamedAddr UnnamedAddr = 1 // unnamed_addr
	LocalUnnamedAddr  UnnamedAddr = 2 // local_unnamed_addr
)

// Type is a type of a Module, made by its type methods; the zero Type is
// no type.
type Type struct{ id int } // 1 + index in the type table

type wTypeKind uint8

const (
	wtVoid wTypeKind = iota
	wtInt
	wtPtr
	wtArray
	wtStruct
	wtFunc
)

// wTypeEntry is one entry of the type table.
type wTypeEntry struct {
	kind   wTypeKind
	bits   uint64 // integer width, or array length
	elems  []Type // array element; struct fields; function result, then parameters
	name   string // named struct
	packed bool
}

// Module is an LLVM module being built. Globals and functions are written
// in the order they are added.
type Module struct {
	SourceFilename string
	Triple         string
	DataLayout     string
	// Producer is written in the identification block ("LLVM" and a version
	// in files LLVM writes); empty means "sycbuild".
	Producer string

	types     []wTypeEntry
	typeIndex map[wTypeKey]int
	globals   []*Global
	funcs     []*Function
}

// NewModule returns an empty module.
func NewModule() *Module {
	return &Module{typeIndex: map[wTypeKey]int{}}
}

// wTypeKey identifies a type for interning: kind, width or length, and the
// element for an array; the elements' IDs as text for other structs and
// functions; the name of a named struct.
type wTypeKey struct {
	kind wTypeKind
	bits uint64
	elem int
	rest string
}

func (m *Module) intern(d wTypeEntry) Type {
	key := wTypeKey{kind: d.kind, bits: d.bits}
	switch {
	case d.kind == wtStruct && d.name != "":
		key.rest = "%" + d.name
	case d.kind == wtArray:
		key.elem = d.elems[0].id
	case len(d.elems) > 0:
		key.rest = fmt.Sprint(d.elems, d.packed)
	}
	if i, ok := m.typeIndex[key]; ok {
		return Type{i}
	}
	m.types = append(m.types, d)
	m.typeIndex[key] = len(m.types)
	return Type{len(m.types)}
}

// Void returns the void type.
func (m *Module) Void() Type { return m.intern(wTypeEntry{kind: wtVoid}) }

// Int returns the integer type of width bits.
func (m *Module) Int(width uint64) Type { return m.intern(wTypeEntry{kind: wtInt, bits: width}) }

// Ptr returns the opaque pointer type of address space 0.
func (m *Module) Ptr() Type { return m.intern(wTypeEntry{kind: wtPtr}) }

// Array returns the type [n x elem].
func (m *Module) Array(n uint64, elem Type) Type {
	return m.intern(wTypeEntry{kind: wtArray, bits: n, elems: []Type{elem}})
}

// Struct returns the literal struct type { fields }.
func (m *Module) Struct(fields ...Type) Type {
	return m.intern(wTypeEntry{kind: wtStruct, elems: fields})
}

// NamedStruct returns the identified struct type %name = type { fields }.
// Asking again for a name returns the first type of that name; a different
// body is an error when the module is written.
func (m *Module) NamedStruct(name string, fields ...Type) Type {
	t := m.intern(wTypeEntry{kind: wtStruct, name: name, elems: fields})
	if d := m.def(t); fmt.Sprint(d.elems) != fmt.Sprint(fields) {
		m.types = append(m.types, wTypeEntry{kind: wtStruct, name: name, elems: fields}) // refused when written
		return Type{len(m.types)}
	}
	return t
}

// Func returns the function type result(params).
func (m *Module) Func(result Type, params ...Type) Type {
	return m.intern(wTypeEntry{kind: wtFunc, elems: append([]Type{result}, params...)})
}

// def returns the definition of t, or nil for a type of another module.
func (m *Module) def(t Type) *wTypeEntry {
	if t.id < 1 || t.id > len(m.types) {
		return nil
	}
	return &m.types[t.id-1]
}

// typeString renders t as LLVM writes it, for messages.
func (m *Module) typeString(t Type) string {
	d := m.def(t)
	if d == nil {
		return "<invalid type>"
	}
	switch d.kind {
	case wtVoid:
		return "void"
	case wtInt:
		return fmt.Sprintf("i%d", d.bits)
	case wtPtr:
		return "ptr"
	case wtArray:
		return fmt.Sprintf("[%d x %s]", d.bits, m.typeString(d.elems[0]))
	case wtStruct:
		if d.name != "" {
			return "%" + d.name
		}
		s := "{"
		for i, f := range d.elems {
			if i > 0 {
				s += ","
			}
			s += " " + m.typeString(f)
		}
		return s + " }"
	default:
		s := m.typeString(d.elems[0]) + " ("
		for i, p := range d.elems[1:] {
			if i > 0 {
				s += ", "
			}
			s += m.typeString(p)
		}
		return s + ")"
	}
}

// Global is a global variable. A nil Init makes it a declaration.
type Global struct {
	Name        string
	ValueType   Type
	Constant    bool
	Linkage     Linkage
	UnnamedAddr UnnamedAddr
	Align       uint64 // in bytes, a power of two; 0 for none
	Section     string
	Init        Constant
}

// Function is a function: a declaration when Body is nil, otherwise one
// basic block, named Block, of Body's instructions.
type Function struct {
	Name        string
	Type        Type // a function type
	Linkage     Linkage
	UnnamedAddr UnnamedAddr
	Section     string
	Block       string
	Body        []Instruction
}

// AddGlobal appends g to the module's globals and returns it.
func (m *Module) AddGlobal(g *Global) *Global {
	m.globals = append(m.globals, g)
	return g
}

// AddFunction appends f to the module's functions and returns it.
func (m *Module) AddFunction(f *Function) *Function {
	m.funcs = append(m.funcs, f)
	return f
}

// Constant is a constant value: *Global, *Function, Int, Null, *Bytes,
// *FileBytes, *Aggregate, *GEP or *PtrToInt. Int and Null are compared by
// value (equal ones are written once); the others by identity.
type Constant interface{ isConstant() }

// Int is an integer constant of an integer type; Value is taken modulo
// 2^width.
type Int struct {
	Type  Type
	Value uint64
}

// Null is the null value of a type (null, zeroinitializer, 0).
type Null struct{ Type Type }

// Bytes is an [n x i8] constant holding Data (n = len(Data)), written as
// LLVM writes strings.
type Bytes struct {
	Type Type
	Data []byte
}

// FileBytes is an [n x i8] constant holding the first n bytes of a file,
// which are read only while the module is written out, as a blob: n is at
// most 2^32-1, the largest blob LLVM reads.
type FileBytes struct {
	Type Type
	File BlobFile
}

// Aggregate is an array or struct constant.
type Aggregate struct {
	Type  Type
	Elems []Constant
}

// GEP is the constant expression getelementptr [inbounds] (Source, ptr
// Base, Indices...), of type ptr.
type GEP struct {
	Source   Type
	Base     Constant
	Indices  []Constant
	InBounds bool
}

// PtrToInt is the constant expression ptrtoint (ptr Value to Type).
type PtrToInt struct {
	Type  Type
	Value Constant
}

func (*Global) isConstant()    {}
func (*Function) isConstant()  {}
func (Int) isConstant()        {}
func (Null) isConstant()       {}
func (*Bytes) isConstant()     {}
func (*FileBytes) isConstant() {}
func (*Aggregate) isConstant() {}
func (*GEP) isConstant()       {}
func (*PtrToInt) isConstant()  {}

// Instruction is an instruction of a function body: Call or Ret.
type Instruction interface{ isInstruction() }

// Call calls Callee with Args (constants), discarding any result.
type Call struct {
	Callee *Function
	Args   []Constant
}

// Ret returns from a void function.
type Ret struct{}

func (*Call) isInstruction() {}
func (Ret) isInstruction()   {}

// WriteTo writes the module as a bitcode file to w. A module that LLVM
// would not accept (a type mismatch, a value of another module, a name
// used twice, ...) is an error, and nothing is written.
func (m *Module) WriteTo(w io.Writer) (int64, error) {
	s, err := m.encode()
	if err != nil {
		return 0, err
	}
	return s.WriteTo(w)
}

// typeOf returns the type of a constant.
func (m *Module) typeOf(c Constant) Type {
	switch c := c.(type) {
	case *Global, *Function, *GEP:
		return m.Ptr()
	case Int:
		return c.Type
	case Null:
		return c.Type
	case *Bytes:
		if c != nil {
			return c.Type
		}
	case *FileBytes:
		if c != nil {
			return c.Type
		}
	case *Aggregate:
		if c != nil {
			return c.Type
		}
	case *PtrToInt:
		if c != nil {
			return c.Type
		}
	}
	return Type{}
}

// wSignRotate encodes v (a width-bit integer) as LLVM writes signed values:
// sign-extended, then shifted left with the sign in bit 0.
func wSignRotate(v uint64, width uint64) uint64 {
	if width < 64 {
		v &= 1<<width - 1
		if v>>(width-1)&1 != 0 {
			v |= ^uint64(0) << width
		}
	}
	s := int64(v)
	if s >= 0 {
		return uint64(s) << 1
	}
	return uint64(-s)<<1 | 1 // -MinInt64 wraps to MinInt64, giving 1, LLVM's "-0"
}

// wEncodeAlign encodes an alignment in bytes as log2+1 (0: none).
func wEncodeAlign(a uint64) (uint64, bool) {
	if a == 0 {
		return 0, true
	}
	if a&(a-1) != 0 || a > 1<<32 {
		return 0, false
	}
	return uint64(bits.TrailingZeros64(a)) + 1, true
}
