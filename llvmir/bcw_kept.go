package llvmir

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
)

// compact returns f's parsed body as a bcBody that no module's memory
// holds (names, types and attributes copied out of the module's text),
// or nil when a field is of a kind it does not keep.
func (a *bcw) compact(f *bcFunc) *bcBody {
	b := &bcBody{text: bytes.Clone(a.bodyText(f)), params: bcParamNames(f), nargs: f.nargs, nblocks: len(f.bnames)}
	b.blocks = make(map[string]int, len(f.blocks))
	for k, v := range f.blocks {
		b.blocks[strings.Clone(k)] = v
	}
	for _, n := range f.bnames {
		b.bnames = append(b.bnames, strings.Clone(n))
	}
	for _, l := range f.order {
		if l.named {
			b.names = append(b.names, bcKName{l.index, strings.Clone(l.name)})
		}
	}
	instNum := f.nargs // the next result's number, counted from the first argument
	for _, in := range f.insts {
		if len(in.bundles) > 0 || len(in.records) > 0 {
			return nil
		}
		k := bcKInst{code: in.code, first: int32(len(b.fields)), loc: in.loc, result: in.result != nil}
		k.attach = slices.Clone(in.attach)
		for _, fd := range in.fields {
			if !b.field(f, fd, instNum, &k) {
				return nil
			}
		}
		k.n = int32(len(b.fields)) - k.first
		b.insts = append(b.insts, k)
		if in.result != nil {
			instNum++
		}
	}
	cl := bcCloner{types: map[*Type]*Type{}}
	b.deps = slices.Clone(f.deps)
	for i := range b.deps {
		b.deps[i].t = cl.ty(b.deps[i].t)
	}
	for _, x := range f.extras {
		x.fnTy = cl.ty(x.fnTy)
		x.name = strings.Clone(x.name)
		x.fn = slices.Clone(x.fn)
		for i := range x.fn {
			x.fn[i].attr = cl.attr(x.fn[i].attr)
		}
		x.slots = slices.Clone(x.slots)
		for i := range x.slots {
			x.slots[i].attrs = slices.Clone(x.slots[i].attrs)
			for j := range x.slots[i].attrs {
				x.slots[i].attrs[j] = cl.attr(x.slots[i].attrs[j])
			}
		}
		b.extras = append(b.extras, x)
	}
	return b
}

// field keeps one field of an instruction whose result, if any, is value
// instNum (counted from the first argument): a local operand's relative
// number is then the same in every module.
func (b *bcBody) field(f *bcFunc, fd bcField, instNum int, k *bcKInst) bool {
	add := func(kind uint8, v uint64) { b.fields = append(b.fields, bcKField{kind, v}) }
	op := fd.op
	if op != nil && op.md != nil {
		return false
	}
	switch fd.kind {
	case fLit:
		add(kLit, fd.v)
	case fDep:
		add(kDep, fd.v)
	case fBB:
		i, ok := f.blocks[f.bbRefs[fd.v].name]
		if !ok {
			return false // an error when the body is written
		}
		add(kLit, uint64(i))
	case fVal, fVT:
		if op.l == nil {
			add(kConstRel, uint64(op.dep-1)) // a constant is never a forward reference
			break
		}
		add(kLit, uint64(uint32(uint64(instNum)-uint64(op.l.index))))
		if fd.kind == fVT && op.l.index >= instNum {
			add(kDep, uint64(op.tdep-1))
			k.fwd = true
		}
	case fSVal:
		if op.l == nil {
			add(kConstSRel, uint64(op.dep-1))
			break
		}
		add(kLit, bcSignRotate(uint64(instNum)-uint64(op.l.index), 64))
	case fAbs:
		if op.l == nil {
			add(kConstAbs, uint64(op.dep-1))
			break
		}
		add(kLocalAbs, uint64(op.l.index))
	default:
		return false
	}
	return true
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
	for i, in := range b.insts {
		vals := a.keptVals[:0]
		for _, fd := range b.fields[in.first : in.first+in.n] {
			switch fd.kind {
			case kLit:
				vals = append(vals, fd.v)
			case kDep:
				vals = append(vals, f.res[fd.v].v)
			case kLocalAbs:
				vals = append(vals, uint64(base)+fd.v)
			case kConstRel:
				vals = append(vals, uint64(uint32(instID-uint64(a.consts.id(f.res[fd.v].c)))))
			case kConstSRel:
				vals = append(vals, bcSignRotate(instID-uint64(a.consts.id(f.res[fd.v].c)), 64))
			case kConstAbs:
				vals = append(vals, uint64(a.consts.id(f.res[fd.v].c)))
			}
		}
		a.keptVals = vals
		a.instRecord(in.code, vals, in.fwd)
		if in.loc != 0 {
			s.Record(bitcode.FuncCodeDebugLoc, a.md.loc(f.res[in.loc-1].md)...)
		}
		if len(in.attach) > 0 {
			rec := []uint64{uint64(i)}
			for _, at := range in.attach {
				rec = append(rec, f.res[at.kind].v, uint64(f.res[at.md].md.id))
			}
			attach = append(attach, rec)
		}
		if in.result {
			instID++
		}
	}
	a.writeAttachments(f, attach)
	a.writeNames(b.names, b.bnames, base)
	s.ExitBlock()
}

// bcCloner copies types and attributes out of a module's memory, each
// type once (a named struct may contain itself).
type bcCloner struct {
	types map[*Type]*Type
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
