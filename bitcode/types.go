package bitcode

import (
	"strconv"
	"strings"
)

// Type kinds.
const (
	tVoid = iota
	tHalf
	tBFloat
	tFloat
	tDouble
	tX86FP80
	tFP128
	tPPCFP128
	tLabel
	tMetadata
	tX86MMX
	tX86AMX
	tToken
	tInt
	tPtr
	tArray
	tVector
	tStruct
	tFunc
	tTarget
)

// typ is one entry of the type table, or a type the decoder derived (a
// pointer to a global's value type, an instruction's result).
type typ struct {
	kind     uint8
	packed   bool    // struct
	vararg   bool    // function
	scalable bool    // vector
	ident    bool    // identified (named or numbered) struct
	opaque   bool    // identified struct without a body
	defined  bool    // table slot filled
	n        uint64  // integer width, array/vector length, address space
	elems    []int32 // pointee; array/vector element; struct fields; return type then parameters; target type parameters
	ints     []uint64
	name     string
	str      string // as printed
}

var simpleTypes = map[uint64]struct {
	kind uint8
	s    string
}{
	TypeCodeVoid:     {tVoid, "void"},
	TypeCodeHalf:     {tHalf, "half"},
	TypeCodeBFloat:   {tBFloat, "bfloat"},
	TypeCodeFloat:    {tFloat, "float"},
	TypeCodeDouble:   {tDouble, "double"},
	TypeCodeX86FP80:  {tX86FP80, "x86_fp80"},
	TypeCodeFP128:    {tFP128, "fp128"},
	TypeCodePPCFP128: {tPPCFP128, "ppc_fp128"},
	TypeCodeLabel:    {tLabel, "label"},
	TypeCodeMetadata: {tMetadata, "metadata"},
	TypeCodeX86MMX:   {tX86MMX, "x86_mmx"},
	TypeCodeX86AMX:   {tX86AMX, "x86_amx"},
	TypeCodeToken:    {tToken, "token"},
}

// parseTypeTable reads TYPE_BLOCK_ID_NEW (its id read).
func (d *decoder) parseTypeTable() {
	b := d.EnterBlock(TypeBlockIDNew)
	if len(d.types) != 0 {
		d.failf("more than one type table")
	}
	r := typeReader{d: d}
	for d.NextRecord(b) {
		ops := d.Ops
		if d.Code == TypeCodeNumEntry {
			// Each entry takes at least one abbreviation id.
			if len(ops) < 1 || ops[0] > (b.End-d.Pos)/uint64(b.Width)+1 {
				d.failf("bad NUMENTRY")
			}
			if len(d.types) == 0 {
				d.types = make([]*typ, ops[0])
			}
			continue
		}
		if d.Code == TypeCodeStructName {
			r.pendingName = opsString(ops)
			continue
		}
		if r.next >= len(d.types) {
			d.failf("more types than NUMENTRY declared")
		}
		t := d.types[r.next]
		if t == nil {
			t = &typ{}
			d.types[r.next] = t
		}
		if s, ok := simpleTypes[d.Code]; ok {
			t.kind, t.str = s.kind, s.s
		} else {
			r.define(t, ops)
		}
		t.defined = true
		r.next++
	}
	d.Leave()
	if r.next != len(d.types) {
		d.failf("type table declares %d types, defines %d", len(d.types), r.next)
	}
	for _, f := range r.fwd {
		if t := d.types[f]; !t.ident {
			d.failf("forward reference to type %d, which is not a named struct", f)
		}
	}
	d.renderTypeTable()
}

// typeReader is the state of parseTypeTable between records.
type typeReader struct {
	d           *decoder
	pendingName string  // a STRUCT_NAME record's name, for the next identified type
	fwd         []int32 // slots referenced before their definition
	next        int     // the slot the next type record defines
}

// ref checks a type id an entry refers to, noting a forward reference.
func (r *typeReader) ref(id uint64) int32 {
	d := r.d
	if id >= uint64(len(d.types)) {
		d.failf("type id %d out of range", id)
	}
	if int(id) >= r.next {
		r.fwd = append(r.fwd, int32(id))
		if d.types[id] == nil {
			d.types[id] = &typ{}
		}
	}
	return int32(id)
}

// refs appends the checked type ids ids to t's element types.
func (r *typeReader) refs(t *typ, ids []uint64) {
	for _, e := range ids {
		t.elems = append(t.elems, r.ref(e))
	}
}

// takeName returns the pending struct name, clearing it.
func (r *typeReader) takeName() string {
	name := r.pendingName
	r.pendingName = ""
	return name
}

// define fills t from the current record, one that is not a simple type.
func (r *typeReader) define(t *typ, ops []uint64) {
	switch r.d.Code {
	case TypeCodeInteger:
		r.integer(t, ops)
	case TypeCodePointer:
		r.typedPointer(t, ops)
	case TypeCodeOpaquePointer:
		r.opaquePointer(t, ops)
	case TypeCodeFunction, TypeCodeFunctionOld:
		r.function(t, ops)
	case TypeCodeStructAnon, TypeCodeStructNamed:
		r.structType(t, ops)
	case TypeCodeOpaque:
		t.kind, t.ident, t.opaque, t.name = tStruct, true, true, r.takeName()
	case TypeCodeArray, TypeCodeVector:
		r.sequence(t, ops)
	case TypeCodeTargetType:
		r.target(t, ops)
	default:
		r.d.failf("unknown type code %d", r.d.Code)
	}
}

// integer reads an INTEGER record: the width.
func (r *typeReader) integer(t *typ, ops []uint64) {
	if len(ops) < 1 || ops[0] < 1 || ops[0] > 1<<23 {
		r.d.failf("bad integer type")
	}
	t.kind, t.n = tInt, ops[0]
}

// typedPointer reads a POINTER record: the pointee, then the address space.
func (r *typeReader) typedPointer(t *typ, ops []uint64) {
	if len(ops) < 1 {
		r.d.failf("bad pointer type")
	}
	t.kind = tPtr
	t.elems = []int32{r.ref(ops[0])}
	if len(ops) > 1 {
		t.n = ops[1]
	}
	r.d.typed = true
}

// opaquePointer reads an OPAQUE_POINTER record: the address space.
func (r *typeReader) opaquePointer(t *typ, ops []uint64) {
	if len(ops) < 1 {
		r.d.failf("bad pointer type")
	}
	t.kind, t.n = tPtr, ops[0]
}

// function reads a FUNCTION or FUNCTION_OLD record: vararg, then the
// return and parameter types.
func (r *typeReader) function(t *typ, ops []uint64) {
	skip := 1
	if r.d.Code == TypeCodeFunctionOld {
		skip = 2
	}
	if len(ops) < skip+1 {
		r.d.failf("bad function type")
	}
	t.kind, t.vararg = tFunc, ops[0] != 0
	r.refs(t, ops[skip:])
}

// structType reads a STRUCT_ANON or STRUCT_NAMED record: packed, then the
// field types.
func (r *typeReader) structType(t *typ, ops []uint64) {
	if len(ops) < 1 {
		r.d.failf("bad struct type")
	}
	t.kind, t.packed = tStruct, ops[0] != 0
	r.refs(t, ops[1:])
	if r.d.Code == TypeCodeStructNamed {
		t.ident, t.name = true, r.takeName()
	}
}

// sequence reads an ARRAY or VECTOR record: the length, the element type
// and a vector's scalable flag.
func (r *typeReader) sequence(t *typ, ops []uint64) {
	if len(ops) < 2 {
		r.d.failf("bad array or vector type")
	}
	t.kind, t.n = tArray, ops[0]
	if r.d.Code == TypeCodeVector {
		t.kind = tVector
		t.scalable = len(ops) > 2 && ops[2] != 0
		if ops[0] == 0 {
			r.d.failf("vector of length 0")
		}
	}
	t.elems = []int32{r.ref(ops[1])}
}

// target reads a TARGET_TYPE record: the count of type parameters, the
// type parameters, then the integer parameters.
func (r *typeReader) target(t *typ, ops []uint64) {
	if len(ops) < 1 || ops[0] > uint64(len(ops)-1) {
		r.d.failf("bad target extension type")
	}
	t.kind, t.name = tTarget, r.takeName()
	r.refs(t, ops[1:1+ops[0]])
	t.ints = append(t.ints, ops[1+ops[0]:]...)
}

// renderTypeTable sets the text of every type of the table and indexes
// the table by text.
func (d *decoder) renderTypeTable() {
	d.typeByStr = make(map[string]int32, len(d.types))
	// Names first: a forward reference is always to an identified struct.
	numbered := 0
	for _, t := range d.types {
		if t.ident {
			if t.name == "" {
				t.str = "%" + strconv.Itoa(numbered)
				numbered++
			} else {
				t.str = "%" + quoteName(t.name)
			}
		}
	}
	var sb strings.Builder
	for i, t := range d.types {
		if !t.ident && t.str == "" {
			sb.Reset()
			d.typeString(&sb, t)
			t.str = sb.String()
			d.charge(len(t.str))
		}
		if _, ok := d.typeByStr[t.str]; !ok {
			d.typeByStr[t.str] = int32(i)
		}
	}
}

// typeString renders a type whose element types are rendered.
func (d *decoder) typeString(sb *strings.Builder, t *typ) {
	el := func(i int) string { return d.types[t.elems[i]].str }
	switch t.kind {
	case tVoid, tHalf, tBFloat, tFloat, tDouble, tX86FP80, tFP128, tPPCFP128, tLabel, tMetadata, tX86MMX, tX86AMX, tToken:
		for _, s := range simpleTypes {
			if s.kind == t.kind {
				sb.WriteString(s.s)
			}
		}
	case tInt:
		sb.WriteString("i")
		sb.WriteString(strconv.FormatUint(t.n, 10))
	case tPtr:
		if t.elems == nil {
			sb.WriteString("ptr")
			if t.n != 0 {
				sb.WriteString(" addrspace(" + strconv.FormatUint(t.n, 10) + ")")
			}
			return
		}
		sb.WriteString(el(0))
		if t.n != 0 {
			sb.WriteString(" addrspace(" + strconv.FormatUint(t.n, 10) + ")")
		}
		sb.WriteString("*")
	case tArray:
		sb.WriteString("[" + strconv.FormatUint(t.n, 10) + " x " + el(0) + "]")
	case tVector:
		sb.WriteString("<")
		if t.scalable {
			sb.WriteString("vscale x ")
		}
		sb.WriteString(strconv.FormatUint(t.n, 10) + " x " + el(0) + ">")
	case tStruct:
		d.structBody(sb, t)
	case tFunc:
		sb.WriteString(el(0))
		sb.WriteString(" (")
		for i := 1; i < len(t.elems); i++ {
			if i > 1 {
				sb.WriteString(", ")
			}
			sb.WriteString(el(i))
		}
		if t.vararg {
			if len(t.elems) > 1 {
				sb.WriteString(", ")
			}
			sb.WriteString("...")
		}
		sb.WriteString(")")
	case tTarget:
		sb.WriteString("target(")
		sb.WriteString(quoteString(t.name))
		for i := range t.elems {
			sb.WriteString(", " + el(i))
		}
		for _, n := range t.ints {
			sb.WriteString(", " + strconv.FormatUint(n, 10))
		}
		sb.WriteString(")")
	}
}

// structBody renders a struct's fields: "{ i32, ptr }", "<{ i8 }>", "{}".
func (d *decoder) structBody(sb *strings.Builder, t *typ) {
	if t.opaque {
		sb.WriteString("opaque")
		return
	}
	if t.packed {
		sb.WriteString("<")
	}
	if len(t.elems) == 0 {
		sb.WriteString("{}")
	} else {
		sb.WriteString("{ ")
		for i, e := range t.elems {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(d.types[e].str)
		}
		sb.WriteString(" }")
	}
	if t.packed {
		sb.WriteString(">")
	}
}

// derive returns the id of a type the table may lack, adding it.
func (d *decoder) derive(t *typ) int32 {
	var sb strings.Builder
	d.typeString(&sb, t)
	s := sb.String()
	if id, ok := d.typeByStr[s]; ok {
		return id
	}
	t.str, t.defined = s, true
	d.charge(len(s))
	d.types = append(d.types, t)
	id := int32(len(d.types) - 1)
	d.typeByStr[s] = id
	return id
}

func (d *decoder) ptrTo(elem int32, as uint64) int32 {
	if d.typed {
		return d.derive(&typ{kind: tPtr, elems: []int32{elem}, n: as})
	}
	return d.derive(&typ{kind: tPtr, n: as})
}

func (d *decoder) intType(w uint64) int32 { return d.derive(&typ{kind: tInt, n: w}) }

// ty returns type id's entry, failing on a bad id.
func (d *decoder) ty(id uint64) *typ {
	if id >= uint64(len(d.types)) {
		d.failf("type id %d out of range", id)
	}
	return d.types[id]
}

func (d *decoder) tyID(id uint64) int32 {
	d.ty(id)
	return int32(id)
}

func (d *decoder) tstr(id int32) string { return d.types[id].str }

// scalarOf returns a vector's element type, or the type itself.
func (d *decoder) scalarOf(id int32) int32 {
	if t := d.types[id]; t.kind == tVector {
		return t.elems[0]
	}
	return id
}

// withScalar returns a type of vector shape like shape with scalar s.
func (d *decoder) withScalar(shape, s int32) int32 {
	if t := d.types[shape]; t.kind == tVector {
		return d.derive(&typ{kind: tVector, n: t.n, scalable: t.scalable, elems: []int32{s}})
	}
	return s
}

func isFP(k uint8) bool { return k >= tHalf && k <= tPPCFP128 }

func opsString(ops []uint64) string {
	b := make([]byte, len(ops))
	for i, o := range ops {
		b[i] = byte(o)
	}
	return string(b)
}
