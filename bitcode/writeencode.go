package bitcode

import (
	"fmt"

	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// wVersion2 is the module version the writer writes: relative value IDs in
// function blocks, names in the string table.
const wVersion2 = 2

// wEncoder holds what writing a module needs: value numbers and sections.
type wEncoder struct {
	m        *Module
	s        *StreamWriter
	ids      map[any]uint64 // global values, shared constants (pointers, Int, Null)
	consts   []Constant     // module constants in value-number order
	sections map[string]uint64
	nvalues  uint64 // globals + functions + constants
	strtab   []byte
}

// wIntKey and wNullKey identify Int and Null constants, shared as LLVM shares
// them.
type wIntKey struct {
	t Type
	v uint64
}
type wNullKey struct{ t Type }

// encode checks the module and builds its bitstream.
func (m *Module) encode() (*StreamWriter, error) {
	e := &wEncoder{m: m, ids: map[any]uint64{}, sections: map[string]uint64{}}
	if err := e.checkTypes(); err != nil {
		return nil, err
	}
	if err := e.number(); err != nil {
		return nil, err
	}
	e.s = NewStreamWriter()
	e.write()
	if err := e.s.Err(); err != nil {
		return nil, err
	}
	return e.s, nil
}

// checkTypes checks every type of the table: elements exist and are
// first-class, named structs are named once.
func (e *wEncoder) checkTypes() error {
	m := e.m
	names := map[string]bool{}
	for i, d := range m.types {
		t := Type{i + 1}
		switch d.kind {
		case wtInt:
			if d.bits < 1 || d.bits > 64 {
				return fmt.Errorf("bitcode: type i%d: integer widths are 1 to 64 here", d.bits)
			}
		case wtArray, wtStruct:
			for _, el := range d.elems {
				if !e.sized(el) {
					return fmt.Errorf("bitcode: type %s: element %s is not a sized type of this module", m.typeString(t), m.typeString(el))
				}
			}
			if d.name != "" {
				if names[d.name] {
					return fmt.Errorf("bitcode: type %%%s defined twice with different bodies", d.name)
				}
				names[d.name] = true
			}
		case wtFunc:
			if r := m.def(d.elems[0]); r == nil || r.kind == wtFunc {
				return fmt.Errorf("bitcode: function type with an invalid result type")
			}
			for _, p := range d.elems[1:] {
				if !e.sized(p) {
					return fmt.Errorf("bitcode: function type %s: parameter %s is not a sized type", m.typeString(t), m.typeString(p))
				}
			}
		}
	}
	return nil
}

// sized reports whether t is a type of the module with a size (not void,
// not a function).
func (e *wEncoder) sized(t Type) bool {
	d := e.m.def(t)
	return d != nil && d.kind != wtVoid && d.kind != wtFunc
}

// number gives every global value and constant its value number, checking
// names, types and initializers.
func (e *wEncoder) number() error {
	m := e.m
	names := map[string]bool{}
	claim := func(name, what string) error {
		if name == "" {
			return nil
		}
		if names[name] {
			return fmt.Errorf("bitcode: %s @%s: the name is already used", what, name)
		}
		names[name] = true
		return nil
	}
	section := func(s string) {
		if _, ok := e.sections[s]; s != "" && !ok {
			e.sections[s] = uint64(len(e.sections)) + 1
		}
	}
	for _, g := range m.globals {
		if g == nil {
			return fmt.Errorf("bitcode: nil global")
		}
		if _, dup := e.ids[g]; dup {
			return fmt.Errorf("bitcode: global @%s added twice", g.Name)
		}
		if err := claim(g.Name, "global"); err != nil {
			return err
		}
		if !e.sized(g.ValueType) {
			return fmt.Errorf("bitcode: global @%s: its value type is not a sized type of this module", g.Name)
		}
		if _, ok := wEncodeAlign(g.Align); !ok {
			return fmt.Errorf("bitcode: global @%s: alignment %d is not a power of two up to 2^32", g.Name, g.Align)
		}
		if g.Init == nil && g.Linkage != ExternalLinkage {
			return fmt.Errorf("bitcode: global @%s: a declaration must have external linkage", g.Name)
		}
		section(g.Section)
		e.ids[g] = e.nvalues
		e.nvalues++
	}
	for _, f := range m.funcs {
		if f == nil {
			return fmt.Errorf("bitcode: nil function")
		}
		if _, dup := e.ids[f]; dup {
			return fmt.Errorf("bitcode: function @%s added twice", f.Name)
		}
		if err := claim(f.Name, "function"); err != nil {
			return err
		}
		if d := m.def(f.Type); d == nil || d.kind != wtFunc {
			return fmt.Errorf("bitcode: function @%s: its type is not a function type of this module", f.Name)
		}
		if f.Body == nil && f.Linkage != ExternalLinkage {
			return fmt.Errorf("bitcode: function @%s: a declaration must have external linkage", f.Name)
		}
		section(f.Section)
		e.ids[f] = e.nvalues
		e.nvalues++
	}
	for _, g := range m.globals {
		if g.Init == nil {
			continue
		}
		if err := e.constant(g.Init, g.ValueType); err != nil {
			return fmt.Errorf("bitcode: initializer of @%s: %w", g.Name, err)
		}
	}
	for _, f := range m.funcs {
		if err := e.checkBody(f); err != nil {
			return fmt.Errorf("bitcode: function @%s: %w", f.Name, err)
		}
	}
	return nil
}

// checkBody checks a function's instructions and numbers their constants.
func (e *wEncoder) checkBody(f *Function) error {
	if f.Body == nil {
		return nil
	}
	if len(f.Body) == 0 {
		return fmt.Errorf("an empty body")
	}
	fd := e.m.def(f.Type)
	for i, inst := range f.Body {
		switch inst := inst.(type) {
		case *Call:
			if inst == nil || inst.Callee == nil {
				return fmt.Errorf("instruction %d: call of nothing", i)
			}
			if _, ok := e.ids[inst.Callee]; !ok {
				return fmt.Errorf("instruction %d: callee @%s is not a function of this module", i, inst.Callee.Name)
			}
			ct := e.m.def(inst.Callee.Type)
			if len(inst.Args) != len(ct.elems)-1 {
				return fmt.Errorf("instruction %d: %d arguments for %d parameters of @%s", i, len(inst.Args), len(ct.elems)-1, inst.Callee.Name)
			}
			for j, a := range inst.Args {
				if err := e.constant(a, ct.elems[j+1]); err != nil {
					return fmt.Errorf("instruction %d: argument %d: %w", i, j, err)
				}
			}
		case Ret:
			if i != len(f.Body)-1 {
				return fmt.Errorf("instruction %d: ret before the end of the block", i)
			}
			if r := e.m.def(fd.elems[0]); r.kind != wtVoid {
				return fmt.Errorf("ret without a value in a function returning %s", e.m.typeString(fd.elems[0]))
			}
		default:
			return fmt.Errorf("instruction %d: unsupported instruction %T", i, inst)
		}
	}
	if _, ok := f.Body[len(f.Body)-1].(Ret); !ok {
		return fmt.Errorf("the block does not end with ret")
	}
	return nil
}

// constant checks that c is a constant of type want and numbers it after
// its operands.
func (e *wEncoder) constant(c Constant, want Type) error {
	m := e.m
	if c == nil {
		return fmt.Errorf("nil constant")
	}
	if got := m.typeOf(c); got != want || m.def(got) == nil {
		return fmt.Errorf("%s constant where %s is expected", m.typeString(got), m.typeString(want))
	}
	switch c.(type) {
	case *Bytes, *FileBytes, *Aggregate, *GEP, *PtrToInt:
		if id, seen := e.ids[c]; seen {
			if id == wVisiting {
				return fmt.Errorf("a constant that contains itself")
			}
			return nil
		}
	}
	key, err := e.constantKey(c)
	if err != nil || key == nil {
		return err // a global value has its number already
	}
	if id, done := e.ids[key]; done && id != wVisiting {
		return nil // an Int or Null written already
	}
	e.ids[key] = e.nvalues
	e.consts = append(e.consts, c)
	e.nvalues++
	return nil
}

// constantKey checks constant c (its type checked) and its operands, and
// returns the key that numbers it: the value of an Int or Null, the
// pointer of the others; nil for a global value.
func (e *wEncoder) constantKey(c Constant) (any, error) {
	m := e.m
	switch c := c.(type) {
	case *Global, *Function:
		if _, ok := e.ids[c]; !ok {
			return nil, fmt.Errorf("a global value of another module")
		}
		return nil, nil
	case Int:
		d := m.def(c.Type)
		if d.kind != wtInt {
			return nil, fmt.Errorf("integer constant of type %s", m.typeString(c.Type))
		}
		return wIntKey{c.Type, c.Value & (^uint64(0) >> (64 - d.bits))}, nil
	case Null:
		if !e.sized(c.Type) {
			return nil, fmt.Errorf("null of an unsized type")
		}
		return wNullKey{c.Type}, nil
	case *Bytes:
		return c, e.byteArray(c.Type, uint64(len(c.Data)))
	case *FileBytes:
		return c, e.fileBytes(c)
	case *Aggregate:
		if c == nil {
			return nil, fmt.Errorf("nil aggregate")
		}
		e.ids[c] = wVisiting
		return c, e.aggregate(c)
	case *GEP:
		if c == nil {
			return nil, fmt.Errorf("nil getelementptr")
		}
		e.ids[c] = wVisiting
		return c, e.gep(c)
	case *PtrToInt:
		if c == nil {
			return nil, fmt.Errorf("nil ptrtoint")
		}
		e.ids[c] = wVisiting
		return c, e.ptrToInt(c)
	}
	return nil, fmt.Errorf("unsupported constant %T", c)
}

// fileBytes checks a constant of a file's bytes: its type and its size.
func (e *wEncoder) fileBytes(c *FileBytes) error {
	if err := e.byteArray(c.Type, c.File.Size); err != nil {
		return err
	}
	if c.File.Size > bitstream.MaxBlobSize {
		return fmt.Errorf("%s: %d bytes: bitcode holds at most %d bytes in one constant", c.File.Name, c.File.Size, uint64(bitstream.MaxBlobSize))
	}
	return nil
}

// aggregate checks an array or struct constant's elements against its
// type, numbering them.
func (e *wEncoder) aggregate(c *Aggregate) error {
	m := e.m
	d := m.def(c.Type)
	switch d.kind {
	case wtArray:
		if uint64(len(c.Elems)) != d.bits {
			return fmt.Errorf("%d elements for %s", len(c.Elems), m.typeString(c.Type))
		}
		for i, el := range c.Elems {
			if err := e.constant(el, d.elems[0]); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
	case wtStruct:
		if len(c.Elems) != len(d.elems) {
			return fmt.Errorf("%d fields for %s", len(c.Elems), m.typeString(c.Type))
		}
		for i, el := range c.Elems {
			if err := e.constant(el, d.elems[i]); err != nil {
				return fmt.Errorf("field %d: %w", i, err)
			}
		}
	default:
		return fmt.Errorf("aggregate of type %s", m.typeString(c.Type))
	}
	return nil
}

// ptrToInt checks a ptrtoint constant: an integer type and a pointer
// operand, which it numbers.
func (e *wEncoder) ptrToInt(c *PtrToInt) error {
	m := e.m
	if d := m.def(c.Type); d.kind != wtInt {
		return fmt.Errorf("ptrtoint to %s", m.typeString(c.Type))
	}
	if err := e.constant(c.Value, m.Ptr()); err != nil {
		return fmt.Errorf("ptrtoint operand: %w", err)
	}
	return nil
}

// wVisiting marks, in ids, a constant whose operands are being visited:
// meeting it again there is a cycle, which no constant can have.
const wVisiting = ^uint64(0)

// byteArray checks that t is [n x i8].
func (e *wEncoder) byteArray(t Type, n uint64) error {
	d := e.m.def(t)
	if d == nil || d.kind != wtArray || d.bits != n {
		return fmt.Errorf("%d bytes for a constant of type %s", n, e.m.typeString(t))
	}
	if el := e.m.def(d.elems[0]); el.kind != wtInt || el.bits != 8 {
		return fmt.Errorf("bytes for a constant of type %s", e.m.typeString(t))
	}
	return nil
}

// gep checks a getelementptr's operands: a pointer base and integer
// indices, the ones that step into a struct constant i32 in range.
func (e *wEncoder) gep(c *GEP) error {
	m := e.m
	if !e.sized(c.Source) {
		return fmt.Errorf("getelementptr over an unsized type")
	}
	if len(c.Indices) == 0 {
		return fmt.Errorf("getelementptr without indices")
	}
	if err := e.constant(c.Base, m.Ptr()); err != nil {
		return fmt.Errorf("getelementptr base: %w", err)
	}
	cur := c.Source
	for i, ix := range c.Indices {
		n, ok := ix.(Int)
		if !ok {
			return fmt.Errorf("getelementptr index %d is not an integer constant", i)
		}
		if err := e.constant(n, n.Type); err != nil {
			return fmt.Errorf("getelementptr index %d: %w", i, err)
		}
		if i == 0 {
			continue
		}
		d := m.def(cur)
		switch d.kind {
		case wtArray:
			cur = d.elems[0]
		case wtStruct:
			if m.def(n.Type).bits != 32 || n.Value >= uint64(len(d.elems)) {
				return fmt.Errorf("getelementptr index %d: a struct field needs an i32 in range", i)
			}
			cur = d.elems[n.Value]
		default:
			return fmt.Errorf("getelementptr index %d steps into %s", i, m.typeString(cur))
		}
	}
	return nil
}

// valueID returns the value number of a checked constant.
func (e *wEncoder) valueID(c Constant) uint64 {
	switch c := c.(type) {
	case Int:
		return e.ids[wIntKey{c.Type, c.Value & (^uint64(0) >> (64 - e.m.def(c.Type).bits))}]
	case Null:
		return e.ids[wNullKey{c.Type}]
	}
	return e.ids[c]
}

// wChars returns s as record operands, one per byte.
func wChars(s string) []uint64 {
	v := make([]uint64, len(s))
	for i := range len(s) {
		v[i] = uint64(s[i])
	}
	return v
}

// strtabRef adds name to the string table and returns its offset and size.
func (e *wEncoder) strtabRef(name string) (uint64, uint64) {
	off := uint64(len(e.strtab))
	e.strtab = append(e.strtab, name...)
	return off, uint64(len(name))
}

// write writes the whole file: identification, module, string table.
func (e *wEncoder) write() {
	s, m := e.s, e.m
	s.Magic()

	s.EnterBlock(IdentificationBlockID, 5)
	producer := m.Producer
	if producer == "" {
		producer = "sycbuild"
	}
	s.Record(IdentificationCodeString, wChars(producer)...)
	s.Record(IdentificationCodeEpoch, BitcodeCurrentEpoch)
	s.ExitBlock()

	s.EnterBlock(ModuleBlockID, 3)
	s.Record(ModuleCodeVersion, wVersion2)
	e.writeTypes()
	if m.Triple != "" {
		s.Record(ModuleCodeTriple, wChars(m.Triple)...)
	}
	if m.DataLayout != "" {
		s.Record(ModuleCodeDatalayout, wChars(m.DataLayout)...)
	}
	sections := make([]string, len(e.sections))
	for name, i := range e.sections {
		sections[i-1] = name
	}
	for _, name := range sections {
		s.Record(ModuleCodeSectionName, wChars(name)...)
	}
	for _, g := range m.globals {
		e.writeGlobal(g)
	}
	for _, f := range m.funcs {
		e.writeFunctionRecord(f)
	}
	if m.SourceFilename != "" {
		s.Record(ModuleCodeSourceFilename, wChars(m.SourceFilename)...)
	}
	e.writeConstants()
	for _, f := range m.funcs {
		e.writeBody(f)
	}
	s.ExitBlock()

	s.EnterBlock(StrtabBlockID, 3)
	blob := s.DefineAbbrev(Literal(StrtabBlob), Blob())
	s.AbbrevRecord(blob, nil, e.strtab, nil)
	s.ExitBlock()
}

func (e *wEncoder) writeTypes() {
	s, m := e.s, e.m
	s.EnterBlock(TypeBlockIDNew, 4)
	s.Record(TypeCodeNumEntry, uint64(len(m.types)))
	id := func(t Type) uint64 { return uint64(t.id - 1) }
	for _, d := range m.types {
		switch d.kind {
		case wtVoid:
			s.Record(TypeCodeVoid)
		case wtInt:
			s.Record(TypeCodeInteger, d.bits)
		case wtPtr:
			s.Record(TypeCodeOpaquePointer, 0)
		case wtArray:
			s.Record(TypeCodeArray, d.bits, id(d.elems[0]))
		case wtStruct:
			ops := []uint64{0}
			if d.packed {
				ops[0] = 1
			}
			for _, f := range d.elems {
				ops = append(ops, id(f))
			}
			if d.name == "" {
				s.Record(TypeCodeStructAnon, ops...)
				continue
			}
			s.Record(TypeCodeStructName, wChars(d.name)...)
			s.Record(TypeCodeStructNamed, ops...)
		case wtFunc:
			ops := []uint64{0} // not vararg
			for _, t := range d.elems {
				ops = append(ops, id(t))
			}
			s.Record(TypeCodeFunction, ops...)
		}
	}
	s.ExitBlock()
}

// writeGlobal writes a GLOBALVAR record: [strtab offset, strtab size, value
// type, constant | explicit type, initializer + 1, linkage, alignment,
// section, visibility, thread local, unnamed_addr, externally initialized,
// DLL storage class, comdat, attributes, dso_local].
func (e *wEncoder) writeGlobal(g *Global) {
	off, size := e.strtabRef(g.Name)
	flags := uint64(2) // the type is the value type (opaque pointers)
	if g.Constant {
		flags |= 1
	}
	var init uint64
	if g.Init != nil {
		init = e.valueID(g.Init) + 1
	}
	align, _ := wEncodeAlign(g.Align)
	e.s.Record(ModuleCodeGlobalVar, off, size, uint64(g.ValueType.id-1), flags, init, uint64(g.Linkage),
		align, e.sections[g.Section], 0, 0, uint64(g.UnnamedAddr), 0, 0, 0, 0, wDSOLocal(g.Linkage))
}

// writeFunctionRecord writes a FUNCTION record: [strtab offset, strtab
// size, type, calling convention, is declaration, linkage, attributes,
// alignment, section, visibility, gc, unnamed_addr, prologue data, DLL
// storage class, comdat, prefix data, personality, dso_local].
func (e *wEncoder) writeFunctionRecord(f *Function) {
	off, size := e.strtabRef(f.Name)
	var proto uint64
	if f.Body == nil {
		proto = 1
	}
	e.s.Record(ModuleCodeFunction, off, size, uint64(f.Type.id-1), 0, proto, uint64(f.Linkage),
		0, 0, e.sections[f.Section], 0, 0, uint64(f.UnnamedAddr), 0, 0, 0, 0, 0, wDSOLocal(f.Linkage))
}

func wDSOLocal(l Linkage) uint64 {
	if l == InternalLinkage || l == PrivateLinkage {
		return 1
	}
	return 0
}

// writeConstants writes the module's constants block, operands before the
// constants using them.
func (e *wEncoder) writeConstants() {
	if len(e.consts) == 0 {
		return
	}
	s, m := e.s, e.m
	s.EnterBlock(ConstantsBlockID, 4)
	// Bytes in memory go as LLVM writes strings, an array of 8-bit values;
	// file bytes as a blob (LLVM reads a blob into the record's values the
	// same way), copied from the file as the stream is written.
	bytesAbbrev := s.DefineAbbrev(Literal(CstCodeString), Array(), Fixed(8))
	blobAbbrev := s.DefineAbbrev(Literal(CstCodeString), Blob())
	var vals []uint64
	cur := Type{}
	for _, c := range e.consts {
		if t := m.typeOf(c); t != cur {
			s.Record(CstCodeSetType, uint64(t.id-1))
			cur = t
		}
		switch c := c.(type) {
		case Int:
			s.Record(CstCodeInteger, wSignRotate(c.Value, m.def(c.Type).bits))
		case Null:
			s.Record(CstCodeNull)
		case *Bytes:
			if wAllZero(c.Data) {
				s.Record(CstCodeNull) // as LLVM makes an all-zero array zeroinitializer
				continue
			}
			vals = vals[:0]
			for _, b := range c.Data {
				vals = append(vals, uint64(b))
			}
			s.AbbrevRecord(bytesAbbrev, vals, nil, nil)
		case *FileBytes:
			if c.File.Size == 0 {
				s.Record(CstCodeNull)
				continue
			}
			file := c.File
			s.AbbrevRecord(blobAbbrev, nil, nil, &file)
		case *Aggregate:
			if len(c.Elems) == 0 {
				s.Record(CstCodeNull) // LLVM reads no empty aggregate record
				continue
			}
			ops := make([]uint64, len(c.Elems))
			for i, el := range c.Elems {
				ops[i] = e.valueID(el)
			}
			s.Record(CstCodeAggregate, ops...)
		case *GEP:
			code := uint64(CstCodeCEGEPOld)
			if c.InBounds {
				code = CstCodeCEInboundsGEP
			}
			ops := []uint64{uint64(c.Source.id - 1), uint64(m.Ptr().id - 1), e.valueID(c.Base)}
			for _, ix := range c.Indices {
				ops = append(ops, uint64(m.typeOf(ix).id-1), e.valueID(ix))
			}
			s.Record(code, ops...)
		case *PtrToInt:
			s.Record(CstCodeCECast, CastPtrToInt, uint64(m.Ptr().id-1), e.valueID(c.Value))
		}
	}
	s.ExitBlock()
}

func wAllZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// writeBody writes a function block: one basic block of calls and a
// return, operands numbered relative to the instruction, and the block's
// name.
func (e *wEncoder) writeBody(f *Function) {
	if f.Body == nil {
		return
	}
	s, m := e.s, e.m
	s.EnterBlock(FunctionBlockID, 4)
	s.Record(FuncCodeDeclareBlocks, 1)
	inst := e.nvalues // the number the next value-producing instruction gets
	for _, in := range f.Body {
		switch in := in.(type) {
		case *Call:
			ops := []uint64{0, 1 << CallExplicitType, uint64(in.Callee.Type.id - 1), inst - e.ids[in.Callee]}
			for _, a := range in.Args {
				ops = append(ops, inst-e.valueID(a))
			}
			s.Record(FuncCodeInstCall, ops...)
			if r := m.def(m.def(in.Callee.Type).elems[0]); r.kind != wtVoid {
				inst++
			}
		case Ret:
			s.Record(FuncCodeInstRet)
		}
	}
	if f.Block != "" {
		s.EnterBlock(ValueSymtabBlockID, 4)
		s.Record(VSTCodeBBEntry, append([]uint64{0}, wChars(f.Block)...)...)
		s.ExitBlock()
	}
	s.ExitBlock()
}
