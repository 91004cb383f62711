package specconst

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/props"
)

// Mode is how spec constants are lowered.
type Mode uint8

// The lowering modes (the reference's HandlingMode).
const (
	Native Mode = iota + 1
	Emulation
	DefaultValues
)

func (m Mode) String() string {
	switch m {
	case Native:
		return "native"
	case Emulation:
		return "emulation"
	case DefaultValues:
		return "default_values"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// The names the lowering recognises and writes.
const (
	scalarPrefix    = "_Z37__sycl_getScalar2020SpecConstantValue"
	compositePrefix = "_Z40__sycl_getComposite2020SpecConstantValue"
	syclAlloca      = "llvm.sycl.alloca"
	mdSpecConsts    = "sycl.specialization-constants"
	mdDefaults      = "sycl.specialization-constants-default-values"
)

// Options configure one lowering.
type Options struct {
	Mode Mode
	// Kept reports whether an entity of the module is in the output module
	// the plan writes; nil means all are.
	Kept func(*llvmir.Entity) bool
	// Defines reports whether a kept function is written with its body
	// (only those calls are lowered); nil means as in the module.
	Defines func(*llvmir.Entity) bool
	// Cloned says the output module was extracted from the input (a split
	// happened); it decides the order in which calls are visited (see
	// props.CallSites).
	Cloned bool
	// Globals, when set, are the global values the output module holds
	// (those Kept accepts), in module order: the lowering then walks them
	// (and the module's OtherReferrers) instead of the whole module, so
	// that it costs what the output module holds.
	Globals []*llvmir.Entity
}

// Result is what the lowering recorded.
type Result struct {
	// Modified reports that spec-constant intrinsics were found and lowered
	// (the reference's SpecConstsMet).
	Modified bool
	// SpecConsts and Defaults are the module's !sycl.specialization-constants
	// and the byte blob of its default values, for the property sets.
	SpecConsts []props.SpecConst
	Defaults   []byte
}

// ContainsSpecConsts reports whether a module has spec-constant
// intrinsics: whether a default-value image is made for it
// (checkModuleContainsSpecConsts). ents are the module's entities (or the
// global values an output module holds) and kept says which are in it
// (nil: all).
func ContainsSpecConsts(ents []*llvmir.Entity, kept func(*llvmir.Entity) bool) bool {
	for _, e := range ents {
		if e.Func == nil || (kept != nil && !kept(e)) {
			continue
		}
		if isSpecConstFunc(e.Name) || isSYCLAlloca(e.Name) {
			return true
		}
	}
	return false
}

func isSpecConstFunc(name string) bool {
	return strings.HasPrefix(name, scalarPrefix) || strings.HasPrefix(name, compositePrefix)
}

func isSYCLAlloca(name string) bool {
	return name == syclAlloca || strings.HasPrefix(name, syclAlloca+".")
}

// scID is one numeric ID of a native constant; undef IDs belong to padding
// fields and are not reported.
type scID struct {
	id    uint32
	undef bool
}

// lowering is the state of one Lower call.
type lowering struct {
	m  *llvmir.Module
	p  *llvmir.Plan
	o  Options
	dl *llvmir.DataLayout

	nextID     uint32
	nextOffset uint64
	ids        map[string][]scID   // native: symbolic ID → its IDs
	offsets    map[string]uint64   // emulation: symbolic ID → buffer offset
	order      []string            // symbolic IDs in order of first sight
	descs      map[string][]uint32 // symbolic ID → descriptor words
	defaults   []*value            // default-values metadata, in order

	decls     []string          // declarations to add, in order
	declTypes map[string]string // function name → its type, to catch clashes

	funcs     []*funcState // functions with lowered calls, in module order
	funcIndex map[*llvmir.Entity]*funcState
	// candidates are globals the lowered calls referenced; those left
	// unreferenced are dropped as GlobalDCE and StripDeadPrototypes would.
	candidates  []*llvmir.Entity
	lowered     map[*llvmir.Entity]bool // declarations whose calls were lowered
	loweredList []*llvmir.Entity        // the same, in module order

	symIDs     map[*llvmir.Entity]string // symbolic-ID strings read so far
	defaultsOf map[*llvmir.Entity]*value // default values read so far
	elements   elementCounter            // sizes of the types seen so far
	structs    map[*llvmir.Type]*structInfo
	flat       map[*value]bool // defaults found to be flattened (see flattened)
}

// funcState collects the edits of one function.
type funcState struct {
	e    *llvmir.Entity
	body *llvmir.BodyEdit
}

// Lower lowers the spec-constant intrinsics of the output module described
// by plan p (built over m), recording the edits in p: rewritten function
// bodies, new declarations of the SPIR-V friendly functions, the
// spec-constant named metadata, and the removal of what the lowering left
// unused. With a nil plan it only computes the Result (what the property
// sets need). Errors name the file, line and column of the offending call.
//
// A module whose spec constants were replaced by their defaults is marked
// by named metadata sycl.specialization-constants-default-values-module;
// the caller adds it when writing (split.AddStatus).
func Lower(m *llvmir.Module, p *llvmir.Plan, o Options) (*Result, error) {
	if o.Mode < Native || o.Mode > DefaultValues {
		return nil, fmt.Errorf("specconst: invalid mode %v", o.Mode)
	}
	l := &lowering{m: m, p: p, o: o, dl: m.DataLayout}
	res := &Result{}
	spirEmulated := isSPIRTriple(m.Triple) && o.Mode == Emulation
	for _, f := range l.globals() {
		if f.Func == nil || !l.kept(f) || !f.Func.Declaration {
			continue
		}
		alloca := isSYCLAlloca(f.Name)
		if alloca && spirEmulated {
			continue // not supported there; the runtime rejects such kernels
		}
		if !alloca && !isSpecConstFunc(f.Name) {
			continue
		}
		sites := props.CallSites(l.globals(), f, l.defines, o.Cloned)
		if len(sites) > 0 {
			if l.lowered == nil {
				l.makeMaps()
			}
			res.Modified = true
			l.lowered[f] = true
			l.loweredList = append(l.loweredList, f)
		}
		for _, s := range sites {
			if err := l.lowerCall(f, s, alloca); err != nil {
				return nil, err
			}
		}
	}
	if err := l.finish(res); err != nil {
		return nil, err
	}
	return res, nil
}

// makeMaps makes the lowering's maps, once it has a call to lower (most
// modules of a split have none).
func (l *lowering) makeMaps() {
	l.ids, l.offsets, l.descs = map[string][]scID{}, map[string]uint64{}, map[string][]uint32{}
	l.declTypes, l.funcIndex = map[string]string{}, map[*llvmir.Entity]*funcState{}
	l.lowered = map[*llvmir.Entity]bool{}
	l.symIDs, l.defaultsOf = map[*llvmir.Entity]string{}, map[*llvmir.Entity]*value{}
}

func (l *lowering) kept(e *llvmir.Entity) bool { return l.o.Kept == nil || l.o.Kept(e) }

// globals returns the entities the lowering looks at, in module order:
// Options.Globals, or every entity of the module.
func (l *lowering) globals() []*llvmir.Entity {
	if l.o.Globals != nil {
		return l.o.Globals
	}
	return l.m.Entities
}

// defines reports whether the output module has e's body.
func (l *lowering) defines(e *llvmir.Entity) bool {
	if !l.kept(e) || e.Func == nil {
		return false
	}
	if l.o.Defines != nil {
		return l.o.Defines(e)
	}
	return !e.Func.Declaration
}

// errAt returns an error located at a source offset.
func (l *lowering) errAt(off int, format string, args ...any) error {
	line, col := l.m.Position(off)
	return &llvmir.Error{File: l.m.File, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (l *lowering) funcState(e *llvmir.Entity) *funcState {
	fs := l.funcIndex[e]
	if fs == nil {
		fs = &funcState{e: e, body: l.m.EditBody(e)}
		l.funcIndex[e] = fs
		l.funcs = append(l.funcs, fs)
	}
	return fs
}

// specCall is one call to lower, as read from its arguments.
type specCall struct {
	c      *llvmir.Call
	alloca bool // llvm.sycl.alloca
	sret   bool // the composite comes back through its first argument
	// nameArg is the index of the symbolic-ID argument; the default value
	// and the run-time buffer follow it.
	nameArg int
	symID   string
	def     *value       // the default value
	ty      *llvmir.Type // the constant's type
}

// lowerCall lowers one call of declaration decl: it reads the constant,
// computes its value in the lowering mode (new constants get their IDs,
// offsets and defaults), sizes the alloca or stores the sret result, and
// replaces the call.
func (l *lowering) lowerCall(decl *llvmir.Entity, site props.CallSite, alloca bool) error {
	sc, err := l.readCall(decl, site.Caller, site.Call(), alloca)
	if err != nil {
		return err
	}
	c := sc.c
	fs := l.funcState(site.Caller)
	var lines []string
	var repl string // the value replacing the call (text without type)
	var replTy *llvmir.Type
	switch l.o.Mode {
	case Native:
		repl, replTy, err = l.lowerNative(fs, &lines, sc)
	case Emulation:
		repl, replTy, err = l.lowerEmulated(fs, &lines, sc)
	case DefaultValues:
		repl, replTy, err = l.lowerDefault(fs, &lines, sc)
	}
	if err != nil {
		return err
	}
	if alloca {
		if repl, err = l.emitAlloca(fs, &lines, sc, repl, replTy); err != nil {
			return err
		}
	}
	if sc.sret {
		if err := l.emitStore(fs, &lines, sc, repl, replTy); err != nil {
			return err
		}
		fs.body.Replace(c.Start, c.End, "", "", lines...)
	} else {
		fs.body.Replace(c.Start, c.End, c.Result, repl, lines...)
	}
	for _, a := range c.Args[sc.nameArg : sc.nameArg+2] {
		if a.Points != nil {
			l.candidates = append(l.candidates, a.Points)
		}
	}
	return nil
}

// readCall reads what a call of decl says about its constant: its
// symbolic ID, default value and type, checking the arguments and the
// type's size.
func (l *lowering) readCall(decl, caller *llvmir.Entity, c *llvmir.Call, alloca bool) (*specCall, error) {
	sc := &specCall{c: c, alloca: alloca}
	sc.sret = len(decl.Func.Params) > 0 && decl.Func.Params[0].SRet() != nil
	if sc.sret {
		sc.nameArg = 1
	}
	need := sc.nameArg + 3
	if alloca {
		need = 5
	}
	if len(c.Args) < need {
		return nil, l.errAt(c.Start, "call of %s has %d arguments, expected %d", decl.Name, len(c.Args), need)
	}
	var err error
	if sc.symID, err = l.symbolicID(caller, c, sc.nameArg); err != nil {
		return nil, err
	}
	if sc.def, err = l.defaultValue(c, sc.nameArg+1); err != nil {
		return nil, err
	}
	switch {
	case sc.sret:
		sc.ty = decl.Func.Params[0].SRet()
	case alloca:
		sc.ty = sc.def.t
	default:
		sc.ty = c.FnType.Ret
	}
	if err := l.checkSize(sc.symID, c.Start, sc.ty, sc.def.t); err != nil {
		return nil, err
	}
	return sc, nil
}

// lowerNative emits the SPIR-V friendly calls that read the constant; a
// constant seen for the first time gets its IDs, descriptors and default.
func (l *lowering) lowerNative(fs *funcState, lines *[]string, sc *specCall) (string, *llvmir.Type, error) {
	ids, seen := l.ids[sc.symID]
	if !seen {
		ids = []scID{{id: l.nextID}}
	}
	index := 0
	repl, err := l.emitNative(fs, lines, sc.ty, &ids, &index, sc.def, sc.c.Start)
	if err != nil {
		return "", nil, err
	}
	if !seen {
		l.nextID += uint32(len(ids))
		l.ids[sc.symID] = ids
		words, err := l.nativeDescriptors(sc.ty, ids)
		if err != nil {
			return "", nil, l.errAt(sc.c.Start, "%v", err)
		}
		l.order = append(l.order, sc.symID)
		l.descs[sc.symID] = words
		l.defaults = append(l.defaults, sc.def)
	}
	return repl, sc.ty, nil
}

// lowerEmulated emits the load of the constant from the run-time buffer;
// a constant seen for the first time gets the next offset at its ABI
// alignment (the padding before it goes to the previous constant's
// descriptors and into the defaults).
func (l *lowering) lowerEmulated(fs *funcState, lines *[]string, sc *specCall) (string, *llvmir.Type, error) {
	c := sc.c
	off, seen := l.offsets[sc.symID]
	if !seen {
		size, err := l.dl.StoreSize(sc.ty)
		if err != nil {
			return "", nil, l.errAt(c.Start, "%v", err)
		}
		align, err := l.dl.ABIAlign(sc.ty)
		if err != nil {
			return "", nil, l.errAt(c.Start, "%v", err)
		}
		off = l.nextOffset
		if off%align != 0 {
			padding := align - off%align
			off += padding
			prev := l.order[len(l.order)-1]
			w := l.descs[prev]
			l.descs[prev] = append(w, props.PaddingID, w[2], uint32(padding))
			pad := &llvmir.Type{Kind: llvmir.ArrayType, Len: padding, Elem: typeI8}
			l.defaults = append(l.defaults, zeroOf(pad))
		}
		l.offsets[sc.symID] = off
		l.order = append(l.order, sc.symID)
		l.descs[sc.symID] = []uint32{l.nextID, 0, uint32(size)}
		l.nextID++
		l.nextOffset = off + size
		l.defaults = append(l.defaults, sc.def)
	}
	repl, err := l.emitLoad(fs, lines, c.Args[sc.nameArg+2], off, sc.ty)
	if err != nil {
		return "", nil, l.errAt(c.Start, "%v", err)
	}
	return repl, sc.ty, nil
}

// lowerDefault gives the constant's default value (a bool's i8 default
// truncated to i1).
func (l *lowering) lowerDefault(fs *funcState, lines *[]string, sc *specCall) (string, *llvmir.Type, error) {
	def := sc.def
	if sc.ty.Kind == llvmir.IntType && sc.ty.Bits == 1 {
		if def.t.Kind != llvmir.IntType || def.t.Bits != 8 {
			return "", nil, l.errAt(sc.c.Start, "bool spec constant %q has a default of type %s, expected i8", sc.symID, def.t)
		}
		name := "%" + fs.body.NewName("bool")
		*lines = append(*lines, name+" = trunc "+def.typed()+" to i1")
		return name, sc.ty, nil
	}
	return def.String(), def.t, nil
}

// emitAlloca emits the alloca that replaces llvm.sycl.alloca, sized by the
// constant's value (its default when emulated) and returns it.
func (l *lowering) emitAlloca(fs *funcState, lines *[]string, sc *specCall, size string, sizeTy *llvmir.Type) (string, error) {
	c := sc.c
	if l.o.Mode == Emulation {
		size, sizeTy = sc.def.String(), sc.def.t
	}
	if sizeTy.Kind != llvmir.IntType {
		return "", l.errAt(c.Start, "llvm.sycl.alloca size spec constant %q is of type %s, expected an integer", sc.symID, sizeTy)
	}
	elemTy := c.Args[3].Type
	align := strings.TrimSpace(c.Args[4].Value)
	if _, err := strconv.ParseUint(align, 10, 64); err != nil {
		return "", l.errAt(c.Start, "llvm.sycl.alloca alignment %q is not an immediate", align)
	}
	name := "%" + fs.body.NewName("alloca")
	line := name + " = alloca " + elemTy.String() + ", " + sizeTy.String() + " " + size + ", align " + align
	if rt := c.FnType.Ret; rt.Kind == llvmir.PtrType && rt.AddrSpace != 0 {
		line += ", addrspace(" + strconv.FormatUint(uint64(rt.AddrSpace), 10) + ")"
	}
	*lines = append(*lines, line)
	return name, nil
}

// emitStore stores the value through the call's sret pointer (cast first
// when a typed pointer points at another type).
func (l *lowering) emitStore(fs *funcState, lines *[]string, sc *specCall, val string, ty *llvmir.Type) error {
	dst := sc.c.Args[0]
	ptrTy, ptr := dst.Type, dst.Value
	if ptrTy.Elem != nil && ptrTy.Elem.String() != ty.String() {
		cast := fs.body.NewValue()
		newTy := &llvmir.Type{Kind: llvmir.PtrType, AddrSpace: ptrTy.AddrSpace, Elem: ty}
		*lines = append(*lines, cast+" = bitcast "+ptrTy.String()+" "+ptr+" to "+newTy.String())
		ptrTy, ptr = newTy, cast
	}
	align, err := l.dl.ABIAlign(ty)
	if err != nil {
		return l.errAt(sc.c.Start, "%v", err)
	}
	*lines = append(*lines, "store "+ty.String()+" "+val+", "+ptrTy.String()+" "+ptr+", align "+strconv.FormatUint(align, 10))
	return nil
}

// symbolicID returns the string the argument points at, without its
// trailing NUL.
func (l *lowering) symbolicID(caller *llvmir.Entity, c *llvmir.Call, arg int) (string, error) {
	g := c.Args[arg].Points
	if g == nil {
		g = l.m.Global(spilledGlobal(caller.Text, c.Args[arg].Value))
	}
	if g == nil || g.Var == nil {
		return "", l.errAt(c.Start, "the symbolic ID of this spec constant is not a string constant (argument %d: %s)", arg+1, c.Args[arg].Value)
	}
	if s, ok := l.symIDs[g]; ok {
		return s, nil
	}
	s, err := l.readSymbolicID(c, g)
	if err == nil {
		l.symIDs[g] = s
	}
	return s, err
}

func (l *lowering) readSymbolicID(c *llvmir.Call, g *llvmir.Entity) (string, error) {
	init, err := l.m.Initializer(g)
	if err != nil {
		return "", err
	}
	v, err := fromConst(init)
	if err != nil {
		return "", l.errAt(c.Start, "symbolic ID @%s: %v", g.Name, err)
	}
	if v.t.Kind != llvmir.ArrayType || v.t.Elem.Kind != llvmir.IntType || v.t.Elem.Bits != 8 {
		return "", l.errAt(c.Start, "symbolic ID @%s is not a string (type %s)", g.Name, v.t)
	}
	b := make([]byte, numElems(v.t))
	for i := range b {
		e := v.elem(i)
		if e.kind != vInt && e.kind != vZero {
			return "", l.errAt(c.Start, "symbolic ID @%s is not a constant string", g.Name)
		}
		b[i] = byte(e.bits)
	}
	if n := len(b); n > 0 && b[n-1] == 0 {
		b = b[:n-1]
	}
	return string(b), nil
}

// defaultValue returns the default value of the spec constant: the first
// field of the specialization_id global the argument points at.
func (l *lowering) defaultValue(c *llvmir.Call, arg int) (*value, error) {
	g := c.Args[arg].Points
	if g == nil || g.Var == nil || g.Var.IsDeclaration() {
		return nil, l.errAt(c.Start, "the default value of this spec constant is not an initialized global (argument %d: %s)", arg+1, c.Args[arg].Value)
	}
	if v, ok := l.defaultsOf[g]; ok {
		return v, nil
	}
	v, err := l.readDefault(c, g)
	if err == nil {
		l.defaultsOf[g] = v
	}
	return v, err
}

func (l *lowering) readDefault(c *llvmir.Call, g *llvmir.Entity) (*value, error) {
	init, err := l.m.Initializer(g)
	if err != nil {
		return nil, err
	}
	v, err := fromConst(init)
	if err != nil {
		return nil, l.errAt(c.Start, "default value @%s: %v", g.Name, err)
	}
	if !isAggregate(v.t) || numElems(v.t) == 0 {
		return nil, l.errAt(c.Start, "@%s is not a specialization_id object (type %s)", g.Name, v.t)
	}
	return v.elem(0), nil
}

// declare records the declaration of a SPIR-V friendly function, once.
func (l *lowering) declare(name string, ret *llvmir.Type, params []*llvmir.Type, at int) error {
	var sig strings.Builder
	sig.WriteString(ret.String())
	sig.WriteString(" (")
	for i, p := range params {
		if i > 0 {
			sig.WriteString(", ")
		}
		sig.WriteString(p.String())
	}
	sig.WriteString(")")
	if prev, ok := l.declTypes[name]; ok {
		if prev != sig.String() {
			return l.errAt(at, "@%s is needed as %s and as %s", name, prev, sig.String())
		}
		return nil
	}
	l.declTypes[name] = sig.String()
	if g := l.m.Global(name); g != nil && l.kept(g) {
		if g.Func == nil || funcSig(g.Func) != sig.String() {
			return l.errAt(at, "@%s exists in the module with another type", name)
		}
		return nil
	}
	params2 := strings.TrimSuffix(strings.SplitN(sig.String(), " (", 2)[1], ")")
	l.decls = append(l.decls, "declare "+ret.String()+" @"+llvmir.QuoteName(name)+"("+params2+")")
	return nil
}

// funcSig is a function's type as text ("i32 (i32, i32)"), built without
// Function.Type, which caches and so must not run concurrently.
func funcSig(f *llvmir.Function) string {
	var b strings.Builder
	b.WriteString(f.RetType.String())
	b.WriteString(" (")
	for i := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Params[i].Type.String())
	}
	if f.VarArg {
		b.WriteString(", ...")
	}
	b.WriteString(")")
	return b.String()
}

// emitNative emits the native form of a value of type ty whose default is
// def: leaves first, depth first, then the composite. It returns the value
// (text) standing for it.
func (l *lowering) emitNative(fs *funcState, lines *[]string, ty *llvmir.Type, ids *[]scID, index *int, def *value, at int) (string, error) {
	if !isAggregate(ty) {
		if *index >= len(*ids) {
			if def.isUndefLike() {
				return "", l.errAt(at, "spec constant leaf of type %s has an undefined default", ty)
			}
			*ids = append(*ids, scID{id: (*ids)[len(*ids)-1].id + 1})
		}
		id := (*ids)[*index].id
		*index++
		params := []*llvmir.Type{typeI32, def.t}
		name, err := mangleFunc(spirvSpecConstant, ty, params)
		if err != nil {
			return "", l.errAt(at, "%v", err)
		}
		args := "i32 " + strconv.FormatUint(uint64(id), 10) + ", " + def.typed()
		if ty.Kind == llvmir.IntType && ty.Bits == 1 && def.t.Kind == llvmir.IntType && def.t.Bits == 8 {
			// bool: the value is read as i8 and truncated, so that char and
			// bool constants share one declaration.
			if err := l.declare(name, typeI8, params, at); err != nil {
				return "", err
			}
			v := fs.body.NewValue()
			*lines = append(*lines, v+" = call i8 @"+name+"("+args+")")
			b := "%" + fs.body.NewName("tobool")
			*lines = append(*lines, b+" = trunc i8 "+v+" to i1")
			return b, nil
		}
		if err := l.declare(name, ty, params, at); err != nil {
			return "", err
		}
		v := fs.body.NewValue()
		*lines = append(*lines, v+" = call "+ty.String()+" @"+llvmir.QuoteName(name)+"("+args+")")
		return v, nil
	}

	n := numElems(ty)
	elems := make([]string, 0, n)
	types := make([]*llvmir.Type, 0, n)
	for i := 0; i < n; i++ {
		elTy := ty.Elem
		if ty.Kind == llvmir.StructType {
			elTy = ty.Fields[i]
		}
		ed, err := l.elemDefault(ty, elTy, def, i)
		if err != nil {
			return "", l.errAt(at, "%v", err)
		}
		types = append(types, elTy)
		if ed.isUndefLike() {
			// A padding field: passed as is, its ID used up.
			if *index >= len(*ids) {
				*ids = append(*ids, scID{id: (*ids)[len(*ids)-1].id + 1, undef: true})
			}
			*index++
			elems = append(elems, ed.typed())
			continue
		}
		v, err := l.emitNative(fs, lines, elTy, ids, index, ed, at)
		if err != nil {
			return "", err
		}
		elems = append(elems, elTy.String()+" "+v)
	}
	name, err := mangleFunc(spirvSpecConstantComposite, ty, types)
	if err != nil {
		return "", l.errAt(at, "%v", err)
	}
	if err := l.declare(name, ty, types, at); err != nil {
		return "", err
	}
	v := fs.body.NewValue()
	*lines = append(*lines, v+" = call "+ty.String()+" @"+llvmir.QuoteName(name)+"("+strings.Join(elems, ", ")+")")
	return v, nil
}

// elemDefault selects the default of element i of composite type ty from
// def. For structs whose default-value type has padding, the element is
// matched by byte offset (the returned type may have explicit padding
// fields the default lacks); an element without a match is undef.
//
// A default whose type is not the spec constant's but a flattened form of
// it (the front end writes the default of a class with bases as one flat
// struct) has its elements found by offset instead (elemByOffset), once
// matching by index finds an aggregate where the type wants another.
func (l *lowering) elemDefault(ty, elTy *llvmir.Type, def *value, i int) (*value, error) {
	if def.window != nil || l.flattened(ty, def) {
		return l.elemByOffset(ty, elTy, def, i)
	}
	return l.elemByIndex(ty, elTy, def, i)
}

// flattened reports whether def, a default of aggregate type ty, is a
// flattened form of it: matching its elements by index fails or finds an
// aggregate where ty wants another type.
func (l *lowering) flattened(ty *llvmir.Type, def *value) bool {
	if !isAggregate(def.t) {
		return false
	}
	if f, ok := l.flat[def]; ok {
		return f
	}
	f := false
	for i := 0; i < numElems(ty) && !f; i++ {
		elTy := ty.Elem
		if ty.Kind == llvmir.StructType {
			elTy = ty.Fields[i]
		}
		ed, err := l.elemByIndex(ty, elTy, def, i)
		f = err != nil || ed.t.String() != elTy.String() && (isAggregate(ed.t) || isAggregate(elTy))
	}
	if l.flat == nil {
		l.flat = map[*value]bool{}
	}
	l.flat[def] = f
	return f
}

// elemByIndex selects element i of def as the default of element i of ty.
func (l *lowering) elemByIndex(ty, elTy *llvmir.Type, def *value, i int) (*value, error) {
	if ty.Kind == llvmir.StructType {
		if def.t.Kind != llvmir.StructType {
			return nil, fmt.Errorf("default value of type %s for a spec constant of type %s", def.t, ty)
		}
		dv, err := l.structInfo(def.t)
		if err != nil {
			return nil, err
		}
		if dv.padded {
			r, err := l.structInfo(ty)
			if err != nil {
				return nil, err
			}
			j, ok := dv.fieldAt(r.layout.Offsets[i])
			if !ok {
				return &value{t: elTy, kind: vUndef}, nil
			}
			i = j
		}
	}
	if i >= numElems(def.t) {
		return nil, fmt.Errorf("default value of type %s has no element %d for a spec constant of type %s", def.t, i, ty)
	}
	return def.elem(i), nil
}

// elemByOffset finds the default of element i of ty in a default value of
// another shape by the element's byte offset (a view of it, when no value
// of the element's type starts there). Padding found that way is passed
// as zeroinitializer, as the reference does.
func (l *lowering) elemByOffset(ty, elTy *llvmir.Type, def *value, i int) (*value, error) {
	base, off := def, uint64(0)
	if def.window != nil {
		base, off = def.window, def.bits
	}
	at, err := l.elemOffset(ty, i)
	if err != nil {
		return nil, err
	}
	v, err := l.locate(base, off+at, elTy)
	if err != nil {
		return nil, err
	}
	if v.isUndefLike() {
		return &value{t: elTy, kind: vUndef, zeroPad: true}, nil
	}
	return v, nil
}

// elemOffset returns the byte offset of element i of aggregate type t.
func (l *lowering) elemOffset(t *llvmir.Type, i int) (uint64, error) {
	if t.Kind == llvmir.StructType {
		si, err := l.structInfo(t)
		if err != nil {
			return 0, err
		}
		return si.layout.Offsets[i], nil
	}
	size, err := l.dl.AllocSize(t.Elem)
	return uint64(i) * size, err
}

// locate returns the part of default value v that starts at byte offset
// off and has type t: the value itself when one of that type starts
// there, undef in padding, else (for an aggregate t) a view of v's bytes
// from off.
func (l *lowering) locate(v *value, off uint64, t *llvmir.Type) (*value, error) {
	top, topOff := v, off
	for {
		if off == 0 && v.t.String() == t.String() {
			return v, nil
		}
		if v.isUndefLike() {
			return &value{t: t, kind: vUndef}, nil
		}
		if !isAggregate(v.t) {
			break
		}
		j, start, ok, err := l.elemContaining(v.t, off)
		if err != nil {
			return nil, err
		}
		if !ok {
			return &value{t: t, kind: vUndef}, nil
		}
		v, off = v.elem(j), off-start
	}
	if isAggregate(t) {
		return &value{t: t, kind: vAgg, window: top, bits: topOff}, nil
	}
	return nil, fmt.Errorf("default value of type %s has no %s at byte %d", top.t, t, topOff)
}

// elemContaining returns the element of aggregate type t whose bytes hold
// offset off, and where it starts; ok is false in padding.
func (l *lowering) elemContaining(t *llvmir.Type, off uint64) (int, uint64, bool, error) {
	n := numElems(t)
	for j := 0; j < n; j++ {
		start, err := l.elemOffset(t, j)
		if err != nil {
			return 0, 0, false, err
		}
		et := t.Elem
		if t.Kind == llvmir.StructType {
			et = t.Fields[j]
		}
		size, err := l.dl.AllocSize(et)
		if err != nil {
			return 0, 0, false, err
		}
		if off >= start && off < start+size {
			return j, start, true, nil
		}
		if t.Kind != llvmir.StructType && size > 0 {
			// Arrays and vectors: the element is known at once.
			j := int(off / size)
			if j >= n {
				return 0, 0, false, nil
			}
			return j, uint64(j) * size, true, nil
		}
	}
	return 0, 0, false, nil
}

// structInfo is what the lowering asks about a struct type, computed once
// per type: its layout, whether it has padding, and which field starts at
// an offset.
type structInfo struct {
	layout *llvmir.StructLayout
	// padded reports padding between or after the elements
	// (StructLayout::hasPadding).
	padded bool
	at     map[uint64]int // offset → the first field there; built on first use
}

func (l *lowering) structInfo(t *llvmir.Type) (*structInfo, error) {
	if si, ok := l.structs[t]; ok {
		return si, nil
	}
	sl, err := l.dl.Layout(t)
	if err != nil {
		return nil, err
	}
	var sum uint64
	for _, f := range t.Fields {
		s, err := l.dl.AllocSize(f)
		if err != nil {
			return nil, err
		}
		sum += s
	}
	si := &structInfo{layout: sl, padded: sl.Size != sum}
	if l.structs == nil {
		l.structs = map[*llvmir.Type]*structInfo{}
	}
	l.structs[t] = si
	return si, nil
}

// fieldAt returns the index of the first field at offset off.
func (si *structInfo) fieldAt(off uint64) (int, bool) {
	if si.at == nil {
		si.at = make(map[uint64]int, len(si.layout.Offsets))
		for i, o := range si.layout.Offsets {
			if _, dup := si.at[o]; !dup {
				si.at[o] = i
			}
		}
	}
	i, ok := si.at[off]
	return i, ok
}

// nativeDescriptors computes the descriptor words of a native constant:
// per reported leaf {ID, offset in the composite, store size}, and per
// struct with tail padding {0xFFFFFFFF, offset, size} of that padding.
func (l *lowering) nativeDescriptors(ty *llvmir.Type, ids []scID) ([]uint32, error) {
	var words []uint32
	k := 0
	var offset uint64
	var walk func(t *llvmir.Type, off *uint64) error
	walk = func(t *llvmir.Type, off *uint64) error {
		if k >= len(ids) {
			return fmt.Errorf("internal error: fewer IDs than leaves of %s", ty)
		}
		if ids[k].undef {
			k++
			return nil
		}
		switch t.Kind {
		case llvmir.ArrayType, llvmir.VectorType:
			for i := uint64(0); i < t.Len; i++ {
				if err := walk(t.Elem, off); err != nil {
					return err
				}
			}
			return nil
		case llvmir.StructType:
			si, err := l.structInfo(t)
			if err != nil {
				return err
			}
			sl := si.layout
			base := *off
			local := *off
			for i, f := range t.Fields {
				local = *off + sl.Offsets[i]
				if err := walk(f, &local); err != nil {
					return err
				}
			}
			if pad := base + sl.Size - local; pad > 0 {
				words = append(words, props.PaddingID, uint32(local), uint32(pad))
			}
			*off += sl.Size
			return nil
		}
		size, err := l.dl.StoreSize(t)
		if err != nil {
			return err
		}
		words = append(words, ids[k].id, uint32(*off), uint32(size))
		k++
		*off += size
		return nil
	}
	err := walk(ty, &offset)
	return words, err
}

// emitLoad emits the emulated read of a constant at offset off of the
// run-time buffer: getelementptr i8 to the offset, bitcast to the
// constant's pointer type (not for i1), load (i8 then trunc for i1).
func (l *lowering) emitLoad(fs *funcState, lines *[]string, buf llvmir.Arg, off uint64, ty *llvmir.Type) (string, error) {
	bt := buf.Type
	if bt.Kind != llvmir.PtrType {
		return "", fmt.Errorf("the run-time buffer argument is of type %s, expected a pointer", bt)
	}
	typed := bt.Elem != nil
	ptrTo := func(t *llvmir.Type) *llvmir.Type {
		if !typed {
			return &llvmir.Type{Kind: llvmir.PtrType, AddrSpace: bt.AddrSpace}
		}
		return &llvmir.Type{Kind: llvmir.PtrType, AddrSpace: bt.AddrSpace, Elem: t}
	}
	gepTy := ptrTo(typeI8)
	gep := "%" + fs.body.NewName("gep")
	*lines = append(*lines, gep+" = getelementptr i8, "+bt.String()+" "+buf.Value+", i32 "+strconv.FormatUint(off, 10))
	isBool := ty.Kind == llvmir.IntType && ty.Bits == 1
	ptr, ptrTy := gep, gepTy
	if !isBool {
		bc := "%" + fs.body.NewName("bc")
		ptrTy = ptrTo(ty)
		*lines = append(*lines, bc+" = bitcast "+gepTy.String()+" "+gep+" to "+ptrTy.String())
		ptr = bc
	}
	loadTy := ty
	if isBool {
		loadTy = typeI8
	}
	align, err := l.dl.ABIAlign(loadTy)
	if err != nil {
		return "", err
	}
	load := "%" + fs.body.NewName("load")
	*lines = append(*lines, load+" = load "+loadTy.String()+", "+ptrTy.String()+" "+ptr+", align "+strconv.FormatUint(align, 10))
	if !isBool {
		return load, nil
	}
	tb := "%" + fs.body.NewName("tobool")
	*lines = append(*lines, tb+" = trunc i8 "+load+" to i1")
	return tb, nil
}

var (
	typeI8  = &llvmir.Type{Kind: llvmir.IntType, Bits: 8}
	typeI32 = &llvmir.Type{Kind: llvmir.IntType, Bits: 32}
)

// isSPIRTriple reports whether the triple's architecture is spir or spir64.
func isSPIRTriple(triple string) bool {
	arch, _, _ := strings.Cut(triple, "-")
	return arch == "spir" || arch == "spir64"
}
