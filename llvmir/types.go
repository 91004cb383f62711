package llvmir

import (
	"strconv"
	"strings"
)

// TypeKind is the kind of an LLVM type.
type TypeKind uint8

// The type kinds.
const (
	VoidType     TypeKind = iota + 1
	IntType               // iN
	HalfType              // half
	BFloatType            // bfloat
	FloatType             // float
	DoubleType            // double
	FP128Type             // fp128
	X86FP80Type           // x86_fp80
	PPCFP128Type          // ppc_fp128
	PtrType               // ptr, ptr addrspace(N), T*, T addrspace(N)*
	VectorType            // <N x T>, <vscale x N x T>
	ArrayType             // [N x T]
	StructType            // { … }, <{ … }>, %name
	FuncType              // R (P…)
	LabelType             // label
	MetadataType          // metadata
	TokenType             // token
	TargetType            // target("name", T…, N…)
	X86MMXType            // x86_mmx
	X86AMXType            // x86_amx
)

// Type is an LLVM type. Named structs are shared: every %name of a module
// is the same *Type, whose Fields are those of its definition. Basic types
// (i32, ptr, …) are shared between modules. Types are read-only.
type Type struct {
	Kind      TypeKind
	Bits      uint32 // IntType: the width
	AddrSpace uint32 // PtrType
	// Elem is the element type of a vector or array, and the pointee of a
	// typed pointer (nil for an opaque ptr).
	Elem     *Type
	Len      uint64 // VectorType, ArrayType: the element count
	Scalable bool   // VectorType: <vscale x …>
	// Fields is a struct's element types, or a function type's parameter
	// types.
	Fields []*Type
	Packed bool
	// Name is a named struct's name without '%' (unescaped); "" for a
	// literal struct.
	Name string
	// Opaque marks a named struct defined as "opaque" or never defined.
	Opaque bool
	Ret    *Type // FuncType
	VarArg bool  // FuncType
	// TargetName, TargetTypes and TargetInts are a target extension type's
	// parameters.
	TargetName  string
	TargetTypes []*Type
	TargetInts  []uint64

	defined bool // a named struct whose definition was seen
}

// Shared basic types.
var (
	typeVoid     = &Type{Kind: VoidType}
	typeHalf     = &Type{Kind: HalfType}
	typeBFloat   = &Type{Kind: BFloatType}
	typeFloat    = &Type{Kind: FloatType}
	typeDouble   = &Type{Kind: DoubleType}
	typeFP128    = &Type{Kind: FP128Type}
	typeX86FP80  = &Type{Kind: X86FP80Type}
	typePPCFP128 = &Type{Kind: PPCFP128Type}
	typeLabel    = &Type{Kind: LabelType}
	typeMetadata = &Type{Kind: MetadataType}
	typeToken    = &Type{Kind: TokenType}
	typeX86MMX   = &Type{Kind: X86MMXType}
	typeX86AMX   = &Type{Kind: X86AMXType}
	typeI1       = &Type{Kind: IntType, Bits: 1}
	typeI8       = &Type{Kind: IntType, Bits: 8}
	typeI16      = &Type{Kind: IntType, Bits: 16}
	typeI32      = &Type{Kind: IntType, Bits: 32}
	typeI64      = &Type{Kind: IntType, Bits: 64}
	typePtr      = &Type{Kind: PtrType}
)

// IsFloat reports whether t is a floating-point type.
func (t *Type) IsFloat() bool {
	switch t.Kind {
	case HalfType, BFloatType, FloatType, DoubleType, FP128Type, X86FP80Type, PPCFP128Type:
		return true
	}
	return false
}

// IsAggregate reports whether t is a struct or an array.
func (t *Type) IsAggregate() bool { return t.Kind == StructType || t.Kind == ArrayType }

// String returns the type in LLVM syntax; named structs print as their
// name, typed pointers as "T addrspace(N)*".
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

// simpleTypeNames are the names of the types that have no parts.
var simpleTypeNames = [...]string{
	VoidType: "void", HalfType: "half", BFloatType: "bfloat", FloatType: "float", DoubleType: "double",
	FP128Type: "fp128", X86FP80Type: "x86_fp80", PPCFP128Type: "ppc_fp128", LabelType: "label",
	MetadataType: "metadata", TokenType: "token", X86MMXType: "x86_mmx", X86AMXType: "x86_amx",
}

func (t *Type) write(b *strings.Builder) {
	switch t.Kind {
	case IntType:
		b.WriteByte('i')
		b.WriteString(strconv.FormatUint(uint64(t.Bits), 10))
	case PtrType:
		if t.Elem != nil {
			t.Elem.write(b)
			writeAddrSpace(b, t.AddrSpace)
			b.WriteByte('*')
			return
		}
		b.WriteString("ptr")
		writeAddrSpace(b, t.AddrSpace)
	case VectorType:
		b.WriteByte('<')
		if t.Scalable {
			b.WriteString("vscale x ")
		}
		t.writeSequence(b)
		b.WriteByte('>')
	case ArrayType:
		b.WriteByte('[')
		t.writeSequence(b)
		b.WriteByte(']')
	case StructType:
		if t.Name != "" {
			b.WriteByte('%')
			b.WriteString(quoteNameIfNeeded(t.Name))
			return
		}
		t.writeBody(b)
	case FuncType:
		t.writeFunc(b)
	case TargetType:
		t.writeTarget(b)
	default:
		if int(t.Kind) < len(simpleTypeNames) && simpleTypeNames[t.Kind] != "" {
			b.WriteString(simpleTypeNames[t.Kind])
			return
		}
		b.WriteString("<invalid type>")
	}
}

// writeAddrSpace writes " addrspace(N)" for a pointer's address space
// other than 0.
func writeAddrSpace(b *strings.Builder, as uint32) {
	if as != 0 {
		b.WriteString(" addrspace(")
		b.WriteString(strconv.FormatUint(uint64(as), 10))
		b.WriteByte(')')
	}
}

// writeSequence writes an array's or vector's "N x elem".
func (t *Type) writeSequence(b *strings.Builder) {
	b.WriteString(strconv.FormatUint(t.Len, 10))
	b.WriteString(" x ")
	t.Elem.write(b)
}

// writeFunc writes a function type: "ret (params[, ...])".
func (t *Type) writeFunc(b *strings.Builder) {
	t.Ret.write(b)
	b.WriteString(" (")
	for i, p := range t.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b)
	}
	if t.VarArg {
		if len(t.Fields) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteByte(')')
}

// writeTarget writes a target extension type: target("name", types, ints).
func (t *Type) writeTarget(b *strings.Builder) {
	b.WriteString("target(")
	b.WriteString(quoteString(t.TargetName))
	for _, p := range t.TargetTypes {
		b.WriteString(", ")
		p.write(b)
	}
	for _, n := range t.TargetInts {
		b.WriteString(", ")
		b.WriteString(strconv.FormatUint(n, 10))
	}
	b.WriteByte(')')
}

// Body returns a struct's literal form ("{ i32, float }", "<{ i8 }>",
// "opaque"), also for a named struct.
func (t *Type) Body() string {
	var b strings.Builder
	t.writeBody(&b)
	return b.String()
}

func (t *Type) writeBody(b *strings.Builder) {
	if t.Kind != StructType {
		t.write(b)
		return
	}
	if t.Opaque {
		b.WriteString("opaque")
		return
	}
	if t.Packed {
		b.WriteByte('<')
	}
	if len(t.Fields) == 0 {
		b.WriteString("{}")
	} else {
		b.WriteString("{ ")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			f.write(b)
		}
		b.WriteString(" }")
	}
	if t.Packed {
		b.WriteByte('>')
	}
}
