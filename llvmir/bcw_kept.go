package llvmir

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// compact returns f's parsed body as a bcBody that no module's memory
// holds (names, types and attributes copied out of the module's text),
// or nil when a field is of a kind it does not keep.
func (a *bcw) compact(f *bcFunc) *bcBody {
	b := &bcBody{nargs: f.nargs, nblocks: len(f.bnames), ndeps: len(f.deps)}
	b.blocks = make(map[string]int, len(f.blocks))
	for k, v := range f.blocks {
		b.blocks[strings.Clone(k)] = v
	}
	names, ok := keptNames(f)
	if !ok {
		return nil
	}
	b.names = names
	var w bcWriter
	instNum := f.nargs // the next result's number, counted from the first argument
	for _, in := range f.insts {
		if m := in.more; m != nil && (len(m.bundles) > 0 || len(m.records) > 0) || !w.inst(f, in, instNum) {
			return nil
		}
		if in.result != nil {
			instNum++
		}
	}
	b.insts = w.b
	cl := bcCloner{types: map[*Type]*Type{}, index: map[*Type]int{}}
	b.deps = cl.deps(f.deps)
	b.types = cl.list
	for _, x := range f.extras {
		b.extras = append(b.extras, cl.extra(x))
	}
	for _, u := range cl.types {
		if u.Kind == StructType && u.Name != "" {
			b.named = append(b.named, u)
		}
	}
	return b
}

// bcWriter writes a kept stream.
type bcWriter struct{ b []byte }

func (w *bcWriter) uv(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

// inst keeps an instruction whose result, if any, is value instNum
// (counted from the first argument): a local operand's relative number is
// then the same in every module.
func (w *bcWriter) inst(f *bcFunc, in *bcInst, instNum int) bool {
	var fields bcWriter
	nf, fwd := 0, false
	for _, fd := range in.fields {
		op := fd.op
		if op != nil && op.md != nil {
			return false
		}
		kind, v := uint8(kLit), fd.v
		switch fd.kind {
		case fLit:
		case fDep:
			kind = kDep
		case fBB:
			i, ok := f.blocks[f.bbRefs[fd.v].name]
			if !ok {
				return false // an error when the body is written
			}
			v = uint64(i)
		case fVal, fVT, fSVal, fAbs:
			kind, v = keptOperand(fd.kind, op, instNum)
			if fd.kind == fVT && op.l != nil && op.l.index >= instNum {
				// A forward reference: its type follows.
				fields.b = append(fields.b, kind)
				fields.uv(v)
				nf++
				kind, v, fwd = kDep, uint64(op.tdep-1), true
			}
		default:
			return false
		}
		fields.b = append(fields.b, kind)
		fields.uv(v)
		nf++
	}
	flags := byte(0)
	if in.result != nil {
		flags |= kiResult
	}
	if fwd {
		flags |= kiFwd
	}
	if in.loc != 0 {
		flags |= kiLoc
	}
	var attach []bcAttach
	if in.more != nil {
		attach = in.more.attach
	}
	if len(attach) > 0 {
		flags |= kiAttach
	}
	w.uv(in.code)
	w.b = append(w.b, flags)
	if in.loc != 0 {
		w.uv(uint64(in.loc - 1))
	}
	if len(attach) > 0 {
		w.uv(uint64(len(attach)))
		for _, at := range attach {
			w.uv(uint64(at.kind))
			w.uv(uint64(at.md))
		}
	}
	w.uv(uint64(nf))
	w.b = append(w.b, fields.b...)
	return true
}

// keptOperand is how a value operand is kept: a local's number made
// relative to the instruction (the same in every module), a constant's
// dep.
func keptOperand(kind byte, op *bcOp, instNum int) (uint8, uint64) {
	if op.l == nil {
		d := uint64(op.dep - 1)
		switch kind {
		case fSVal:
			return kConstSRel, d
		case fAbs:
			return kConstAbs, d
		}
		return kConstRel, d // a constant is never a forward reference
	}
	switch kind {
	case fSVal:
		return kLit, bcSignRotate(uint64(instNum)-uint64(op.l.index), 64)
	case fAbs:
		return kLocalAbs, uint64(op.l.index)
	}
	return kLit, uint64(uint32(uint64(instNum) - uint64(op.l.index)))
}

// writeKept writes the function block of f, whose body is kept (f.kept)
// and its deps answered (f.res).
func (a *bcw) writeKept(f *bcFunc) {
	s, b := a.s, f.kept
	s.EnterBlock(bitcode.FunctionBlockID, 4)
	s.Record(bitcode.FuncCodeDeclareBlocks, uint64(b.nblocks))
	base := a.consts.base + len(a.consts.list) // the first argument's number
	instID := uint64(base + b.nargs)
	var attach [][]uint64
	r := bcReader{b: b.insts}
	for i := 0; r.i < len(r.b); i++ {
		code := r.uv()
		flags := r.byte()
		loc := -1
		if flags&kiLoc != 0 {
			loc = int(r.uv())
		}
		if flags&kiAttach != 0 {
			rec := []uint64{uint64(i)}
			for n := r.uv(); n > 0; n-- {
				kind, md := r.uv(), r.uv()
				rec = append(rec, f.res[kind].v, uint64(f.res[md].md.id))
			}
			attach = append(attach, rec)
		}
		vals := a.keptVals[:0]
		for n := r.uv(); n > 0; n-- {
			kind, v := r.byte(), r.uv()
			switch kind {
			case kLit:
				vals = append(vals, v)
			case kDep:
				vals = append(vals, f.res[v].v)
			case kLocalAbs:
				vals = append(vals, uint64(base)+v)
			case kConstRel:
				vals = append(vals, uint64(uint32(instID-uint64(a.consts.id(f.res[v].c)))))
			case kConstSRel:
				vals = append(vals, bcSignRotate(instID-uint64(a.consts.id(f.res[v].c)), 64))
			case kConstAbs:
				vals = append(vals, uint64(a.consts.id(f.res[v].c)))
			}
		}
		a.keptVals = vals
		a.instRecord(code, vals, flags&kiFwd != 0)
		if loc >= 0 {
			s.Record(bitcode.FuncCodeDebugLoc, a.md.loc(f.res[loc].md)...)
		}
		if flags&kiResult != 0 {
			instID++
		}
	}
	a.writeAttachments(f, attach)
	a.writeKeptNames(b.names, base)
	s.ExitBlock()
}

// keptNames keeps f's value symbol table: per entry (named values, then
// named blocks), its code and name class (vstClass), the value's index
// from the first argument or the block's number, and the name's bits as a
// record's array (bitstream.EncodeText), so that each module writes them
// without looking at the name again. ok is false for a name the class's
// elements cannot hold (none: the class is chosen to hold it).
func keptNames(f *bcFunc) (names []byte, ok bool) {
	n := 0
	for _, l := range f.order {
		if l.named {
			n++
		}
	}
	for _, name := range f.bnames {
		if name != "" {
			n++
		}
	}
	w := bcWriter{b: binary.AppendUvarint(nil, uint64(n))}
	var bits []byte
	entry := func(code uint64, index int, name string) bool {
		class := vstClass(name)
		t, err := bitstream.EncodeText(vstElement(class), name, bits[:0])
		if err != nil {
			return false
		}
		bits = t.Bits
		w.b = append(w.b, byte(code-bitcode.VSTCodeEntry)<<2|byte(class))
		w.uv(uint64(index))
		w.uv(uint64(t.N))
		w.b = append(w.b, t.Bits...)
		return true
	}
	for _, l := range f.order {
		if l.named && !entry(bitcode.VSTCodeEntry, l.index, l.name) {
			return nil, false
		}
	}
	for i, name := range f.bnames {
		if name != "" && !entry(bitcode.VSTCodeBBEntry, i, name) {
			return nil, false
		}
	}
	return w.b, true
}

// writeKeptNames writes a kept body's value symbol table (keptNames),
// base being its first argument's number.
func (a *bcw) writeKeptNames(names []byte, base int) {
	r := bcReader{b: names}
	n := r.uv()
	if n == 0 {
		return
	}
	s := a.s
	s.EnterBlock(bitcode.ValueSymtabBlockID, 4)
	var ab vstAbbrevs
	for ; n > 0; n-- {
		head := r.byte()
		code, class := bitcode.VSTCodeEntry+uint64(head>>2), int(head&3)
		id := r.uv()
		if code == bitcode.VSTCodeEntry {
			id += uint64(base)
		}
		bits := uint(r.uv())
		end := r.i + int(bits+7)/8
		s.EncodedTextRecord(ab.id(s, code, class), id, bitstream.Text{El: vstElement(class), N: bits, Bits: r.b[r.i:end]})
		r.i = end
	}
	s.ExitBlock()
}

// bcCloner copies types and attributes out of a module's memory, each
// type once (a named struct may contain itself).
type bcCloner struct {
	types map[*Type]*Type
	index map[*Type]int // a kept body's types: their index in list
	list  []*Type
}

// typeIndex is t's index in the kept body's types, t copied.
func (c *bcCloner) typeIndex(t *Type) uint64 {
	if i, ok := c.index[t]; ok {
		return uint64(i)
	}
	c.index[t] = len(c.list)
	c.list = append(c.list, c.ty(t))
	return uint64(len(c.list) - 1)
}

// deps keeps a body's deps as a stream, their types in c.list.
func (c *bcCloner) deps(deps []bcDep) []byte {
	var w bcWriter
	for _, d := range deps {
		w.b = append(w.b, d.kind)
		switch d.kind {
		case depType:
			w.uv(c.typeIndex(d.t))
		case depSmallInt:
			w.uv(c.typeIndex(d.t))
			w.uv(d.u)
		case depConst:
			w.uv(c.typeIndex(d.t))
			w.uv(uint64(d.at))
			w.uv(uint64(d.x + 1))
		case depKind, depMD, depAttrs:
			w.uv(uint64(d.x))
		}
	}
	return w.b
}

// extra copies x out of the module's memory.
func (c *bcCloner) extra(x bcDepExtra) bcDepExtra {
	x.fnTy = c.ty(x.fnTy)
	x.name = strings.Clone(x.name)
	x.fn = slices.Clone(x.fn)
	for i := range x.fn {
		x.fn[i].attr = c.attr(x.fn[i].attr)
	}
	x.slots = slices.Clone(x.slots)
	for i := range x.slots {
		x.slots[i].attrs = slices.Clone(x.slots[i].attrs)
		for j := range x.slots[i].attrs {
			x.slots[i].attrs[j] = c.attr(x.slots[i].attrs[j])
		}
	}
	return x
}

func (c *bcCloner) ty(t *Type) *Type {
	if t == nil || (t.Name == "" && t.TargetName == "" && t.Elem == nil && t.Ret == nil && len(t.Fields) == 0 && len(t.TargetTypes) == 0) {
		return t // nothing in it is the module's
	}
	if u, ok := c.types[t]; ok {
		return u
	}
	u := new(Type)
	*u = *t
	c.types[t] = u
	u.Name, u.TargetName = strings.Clone(t.Name), strings.Clone(t.TargetName)
	u.Elem, u.Ret = c.ty(t.Elem), c.ty(t.Ret)
	u.Fields = slices.Clone(t.Fields)
	for i := range u.Fields {
		u.Fields[i] = c.ty(u.Fields[i])
	}
	u.TargetTypes = slices.Clone(t.TargetTypes)
	for i := range u.TargetTypes {
		u.TargetTypes[i] = c.ty(u.TargetTypes[i])
	}
	u.TargetInts = slices.Clone(t.TargetInts)
	return u
}

func (c *bcCloner) attr(at Attr) Attr {
	at.Key, at.Value = strings.Clone(at.Key), strings.Clone(at.Value)
	at.Type = c.ty(at.Type)
	return at
}
