package llvmir

import (
	"github.com/sycbuild/sycbuild/bitcode"
)

// bcTypes is the type table. Types are numbered as LLVM's ValueEnumerator
// numbers them: a type after the types it contains, except that a named
// struct may be referenced before its own entry (the only forward
// reference the reader accepts), which is what lets structs recurse.
type bcTypes struct {
	a     *bcw
	list  []*Type
	byKey map[string]int
	byPtr map[*Type]int

	lastT  *Type // the type id answered last, and its number
	lastID int
}

const bcVisiting = -1

func (ts *bcTypes) init(a *bcw) {
	ts.a = a
	ts.byKey = map[string]int{}
	ts.byPtr = map[*Type]int{}
}

// key identifies a type structurally; named structs by name.
func bcTypeKey(t *Type) string {
	if t.Kind == StructType && t.Name != "" {
		return "%" + t.Name
	}
	return t.String()
}

// id returns the type's number, adding it (and what it contains) to the
// table; off positions errors.
func (ts *bcTypes) id(t *Type, off int) int {
	// Most operands repeat the type before them (i32 after i32): the last
	// answer is kept beside the map.
	if t == ts.lastT {
		return ts.lastID
	}
	if id, ok := ts.byPtr[t]; ok && id >= 0 {
		ts.lastT, ts.lastID = t, id
		return id
	}
	k := bcTypeKey(t)
	if id, ok := ts.byKey[k]; ok && id >= 0 {
		ts.byPtr[t] = id
		return id
	}
	ts.enumerate(t, k, off)
	id := ts.byKey[k]
	ts.byPtr[t] = id
	return id
}

func (ts *bcTypes) enumerate(t *Type, k string, off int) {
	if id, ok := ts.byKey[k]; ok {
		_ = id
		return // numbered, or being numbered (a recursive struct)
	}
	a := ts.a
	switch t.Kind {
	case PtrType:
		if t.Elem == nil && !a.opq {
			a.unsupported(off, "a module mixing typed and opaque pointers")
		}
		if a.opq {
			// A typed pointer read as opaque: its pointee is not a type of
			// the module.
			ts.byKey[k] = len(ts.list)
			ts.list = append(ts.list, bcPtr(int(t.AddrSpace)))
			return
		}
	case StructType:
		if t.Name != "" {
			ts.byKey[k] = bcVisiting
		}
	case X86MMXType:
		if a.gen >= 20 {
			a.unsupported(off, "x86_mmx")
		}
	}
	for _, sub := range bcSubtypes(t) {
		ts.enumerate(sub, bcTypeKey(sub), off)
	}
	if id, ok := ts.byKey[k]; ok && id >= 0 {
		return
	}
	ts.byKey[k] = len(ts.list)
	ts.list = append(ts.list, t)
}

func bcSubtypes(t *Type) []*Type {
	switch t.Kind {
	case PtrType, ArrayType, VectorType:
		if t.Elem != nil {
			return []*Type{t.Elem}
		}
	case StructType:
		return t.Fields
	case FuncType:
		return append([]*Type{t.Ret}, t.Fields...)
	case TargetType:
		return t.TargetTypes
	}
	return nil
}

// ref returns the number of a type already in the table.
func (ts *bcTypes) ref(t *Type) uint64 {
	return uint64(ts.byKey[bcTypeKey(t)])
}

var bcSimpleTypes = map[TypeKind]uint64{
	VoidType: bitcode.TypeCodeVoid, FloatType: bitcode.TypeCodeFloat, DoubleType: bitcode.TypeCodeDouble,
	LabelType: bitcode.TypeCodeLabel, HalfType: bitcode.TypeCodeHalf, BFloatType: bitcode.TypeCodeBFloat,
	X86FP80Type: bitcode.TypeCodeX86FP80, FP128Type: bitcode.TypeCodeFP128, PPCFP128Type: bitcode.TypeCodePPCFP128,
	MetadataType: bitcode.TypeCodeMetadata, X86MMXType: bitcode.TypeCodeX86MMX, TokenType: bitcode.TypeCodeToken,
	X86AMXType: bitcode.TypeCodeX86AMX,
}

func (ts *bcTypes) write() {
	s := ts.a.s
	s.EnterBlock(bitcode.TypeBlockIDNew, 4)
	s.Record(bitcode.TypeCodeNumEntry, uint64(len(ts.list)))
	for _, t := range ts.list {
		if c, ok := bcSimpleTypes[t.Kind]; ok {
			s.Record(c)
			continue
		}
		switch t.Kind {
		case IntType:
			s.Record(bitcode.TypeCodeInteger, uint64(t.Bits))
		case PtrType:
			if t.Elem == nil || ts.a.opq {
				s.Record(bitcode.TypeCodeOpaquePointer, uint64(t.AddrSpace))
			} else {
				s.Record(bitcode.TypeCodePointer, ts.ref(t.Elem), uint64(t.AddrSpace))
			}
		case ArrayType:
			s.Record(bitcode.TypeCodeArray, t.Len, ts.ref(t.Elem))
		case VectorType:
			if t.Scalable {
				s.Record(bitcode.TypeCodeVector, t.Len, ts.ref(t.Elem), 1)
			} else {
				s.Record(bitcode.TypeCodeVector, t.Len, ts.ref(t.Elem))
			}
		case FuncType:
			ops := []uint64{0, ts.ref(t.Ret)}
			if t.VarArg {
				ops[0] = 1
			}
			for _, p := range t.Fields {
				ops = append(ops, ts.ref(p))
			}
			s.Record(bitcode.TypeCodeFunction, ops...)
		case StructType:
			if t.Name != "" && !isDigits(t.Name) {
				s.Record(bitcode.TypeCodeStructName, bcChars(t.Name)...)
			}
			if t.Name != "" && t.Opaque {
				s.Record(bitcode.TypeCodeOpaque, 0)
				continue
			}
			ops := []uint64{0}
			if t.Packed {
				ops[0] = 1
			}
			for _, f := range t.Fields {
				ops = append(ops, ts.ref(f))
			}
			if t.Name == "" {
				s.Record(bitcode.TypeCodeStructAnon, ops...)
			} else {
				s.Record(bitcode.TypeCodeStructNamed, ops...)
			}
		case TargetType:
			s.Record(bitcode.TypeCodeStructName, bcChars(t.TargetName)...)
			ops := []uint64{uint64(len(t.TargetTypes))}
			for _, p := range t.TargetTypes {
				ops = append(ops, ts.ref(p))
			}
			ops = append(ops, t.TargetInts...)
			s.Record(bitcode.TypeCodeTargetType, ops...)
		}
	}
	s.ExitBlock()
}
