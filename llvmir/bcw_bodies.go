package llvmir

import (
	"encoding/binary"
	"hash/maphash"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
)

// Bodies parsed once, written many times. A per-kernel split writes the
// same helper functions into many modules: at 1,000 kernels of the
// benchmark's module, 11,615 bodies of which 1,399 differ. A body's parse
// is the writer's largest cost, and most of what it finds does not depend
// on the module: the instructions, their local operands (numbered from the
// function's first argument), blocks and names. What does is every number
// a module's tables give: types, constants, attribute lists, metadata
// nodes and kinds. The parse asks the tables through deps (a bcFunc's
// deps and res), and fields and operands hold the dep, not the number.
//
// A BodyCache keeps a body met before (the second time it is met: a
// kernel's body, met once, is never kept) as a bcBody: its records with
// the local operands made numbers and the deps left as deps, in memory of
// its own. Another module whose body has the same bytes (and parameter
// names) asks its own tables the same questions in the same order (a
// small integer by its value, another constant parsed again from its own
// text at the same offset) and writes the records. Its tables grow
// exactly as a parse of its text would grow them, so the module's bitcode
// is the same bytes either way. A body is taken only where the module
// defines the named structs it uses as the module that kept it did.
//
// Bodies whose parse did what deps do not cover are parsed every time:
// metadata operands, debug records, operand bundles, sync scopes other
// than the default, blockaddress, inline metadata attachments.

// BodyCache is shared by the modules of one run written with
// BitcodeOptions.Bodies; it is safe for concurrent use.
type BodyCache struct {
	mu     sync.Mutex
	seen   map[bcBodyKey]bool
	kept   map[bcBodyKey]*bcBody
	order  []bcBodyKey // kept bodies, oldest first
	size   int         // bytes kept (about)
	limit  int
	shared atomic.Int64
}

// DefaultBodyCacheLimit is the memory a BodyCache keeps bodies in by
// default: the bodies of a few thousand helper functions.
const DefaultBodyCacheLimit = 64 << 20

// NewBodyCache returns an empty cache that keeps bodies in about limit
// bytes (0: DefaultBodyCacheLimit). Past it, the body kept first is
// dropped: a split writes the modules of related kernels one after the
// other, so the bodies met last are the ones met next.
func NewBodyCache(limit int) *BodyCache {
	if limit <= 0 {
		limit = DefaultBodyCacheLimit
	}
	return &BodyCache{seen: map[bcBodyKey]bool{}, kept: map[bcBodyKey]*bcBody{}, limit: limit}
}

// Shared returns how many bodies were taken from the cache, not parsed.
func (c *BodyCache) Shared() int { return int(c.shared.Load()) }

// bcBodyKey identifies a body: two hashes each of its text and of its
// parameter names, and what its parse depends on besides (the LLVM
// generation and the pointer kind). The hashes are hash/maphash's, with
// seeds drawn once per process (bodySeeds): a cache lives in one process,
// and two bodies share a key by chance with a probability near 2^-128.
// SHA-256, before, took 4% of a per-kernel split's CPU time.
type bcBodyKey struct {
	sum [4]uint64
	gen int
	opq bool
}

// bodySeeds seed the hashes of bcBodyKey.
var bodySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// bcDep is one question a body's parse asked the module's tables.
type bcDep struct {
	t    *Type  // depType, depConst, depSmallInt
	u    uint64 // depSmallInt: the value
	at   int32  // depConst: the constant's offset from the body's "{"
	x    int32  // depConst: index in extra of inline assembly's function type, or -1; others: index in extra
	kind uint8
}

// bcDepExtra is what the rarer deps need.
type bcDepExtra struct {
	fnTy  *Type      // a callee's function type (inline assembly)
	name  string     // depKind
	refID int32      // depMD: !N
	fn    []bcFnPart // depAttrs: the call site's function attributes
	slots []bcSlot   // depAttrs: return value and arguments
}

const (
	depType     = iota // a type's number (res.v)
	depConst           // a constant (res.c)
	depSmallInt        // an integer constant of up to 64 bits (res.c), not parsed again
	depIntOne          // the constant i32 1, an alloca's default size
	depKind            // a metadata kind's number (res.v)
	depMD              // a numbered node (res.md)
	depAttrs           // an attribute list's number (res.v)
)

// bcFnPart is one of a call site's function attributes as written: an
// attribute group (#N) or an attribute.
type bcFnPart struct {
	group int // -1 for attr
	attr  Attr
}

// bcDepRes is a dep's answer in one module.
type bcDepRes struct {
	v  uint64
	c  *bcConst
	md *bcMD
}

// ask records a dep (only when bodies may be kept: a module written
// alone needs only the answers) and its answer, and returns its index in
// the body. The bodies' answers are chunks (bcw.res), each body a range of
// one (parseBody makes it f.res when the body ends): a body that fills a
// chunk moves to a larger one, so that no array the size of the module is
// copied as it grows.
func (f *bcFunc) ask(a *bcw, d bcDep, r bcDepRes) int32 {
	if len(a.res) == cap(a.res) {
		a.moveDeps(f.depBase, 0)
		f.depBase = 0
	}
	if a.recordDeps {
		a.deps = append(a.deps, d)
	}
	a.res = append(a.res, r)
	return int32(len(a.res) - 1 - f.depBase)
}

// moveDeps starts new chunks holding the deps from base on, with room for
// need more.
func (a *bcw) moveDeps(base, need int) {
	n := len(a.res) - base
	size := max(4096, 2*n, n+need)
	res := make([]bcDepRes, n, size)
	copy(res, a.res[base:])
	a.res = res
	if a.recordDeps {
		deps := make([]bcDep, n, size)
		copy(deps, a.deps[base:])
		a.deps = deps
	}
}

// endDeps makes the deps asked since the body began f's.
func (f *bcFunc) endDeps(a *bcw) {
	n := len(a.res)
	f.res = a.res[f.depBase:n:n]
	if a.recordDeps {
		f.deps = a.deps[f.depBase:n:n]
	}
}

func (f *bcFunc) extra(x bcDepExtra) int32 {
	f.extras = append(f.extras, x)
	return int32(len(f.extras) - 1)
}

// typeDep numbers t and returns its dep. A type asked before in the body
// is not asked again: a second answer could not differ, nor add a type.
func (f *bcFunc) typeDep(a *bcw, t *Type, off int) int32 {
	if t == a.lastAsked {
		return a.lastAskedDep
	}
	d, ok := a.asked[t]
	if !ok {
		d = f.ask(a, bcDep{kind: depType, t: t}, bcDepRes{v: uint64(a.tys.id(t, off))})
		a.asked[t] = d
	}
	a.lastAsked, a.lastAskedDep = t, d
	return d
}

// tyField is a field holding t's number.
func (f *bcFunc) tyField(a *bcw, t *Type, off int) bcField {
	return bcField{kind: fDep, v: uint64(f.typeDep(a, t, off))}
}

// constDep parses the constant of type t at the current token.
func (f *bcFunc) constDep(a *bcw, t *Type) int32 {
	p := a.p
	if p.tok.kind == tInt && t.Kind == IntType && t.Bits <= 64 {
		// Most constants of a body: asked again by value, not read again.
		if u, ok := bcSmallInt(p.text(p.tok)); ok {
			p.next()
			return f.ask(a, bcDep{kind: depSmallInt, t: t, u: u}, bcDepRes{c: a.consts.smallInt(t, u)})
		}
	}
	at := int32(p.tok.start - f.bodyStart)
	x := int32(-1)
	if a.consts.asmFnTy != nil {
		x = f.extra(bcDepExtra{fnTy: a.consts.asmFnTy})
	}
	c := a.consts.parse(t)
	return f.ask(a, bcDep{kind: depConst, t: t, at: at, x: x}, bcDepRes{c: c})
}

// intOneDep is the constant i32 1.
func (f *bcFunc) intOneDep(a *bcw) int32 {
	return f.ask(a, bcDep{kind: depIntOne}, bcDepRes{c: a.intOne()})
}

// intOne is the constant i32 1, an alloca's default size (depIntOne's
// answer, in a parse and in a replay).
func (a *bcw) intOne() *bcConst { return a.consts.intConst(typeI32, big.NewInt(1)) }

// attachDep resolves an instruction's attachment !kind !N: the deps of
// the kind (-1 for !dbg) and of the node.
func (f *bcFunc) attachDep(a *bcw, att Attachment, off int) (kind, node int32) {
	kind = -1
	if att.Kind != "dbg" {
		kind = f.ask(a, bcDep{kind: depKind, x: f.extra(bcDepExtra{name: att.Kind})}, bcDepRes{v: a.md.kind(att.Kind)})
	}
	if att.refID < 0 {
		f.noCache = true // an inline node: read from this module's text, where it is
	}
	md := a.md.attachment(att, off)
	node = f.ask(a, bcDep{kind: depMD, x: f.extra(bcDepExtra{refID: att.refID})}, bcDepRes{md: md})
	return kind, node
}

// attrsField is a field holding the number of a call's attribute list.
func (f *bcFunc) attrsField(a *bcw, off int, fn []bcFnPart, slots []bcSlot) bcField {
	id := a.callAttrs(off, fn, slots)
	x := f.extra(bcDepExtra{fn: fn, slots: slots})
	return bcField{kind: fDep, v: uint64(f.ask(a, bcDep{kind: depAttrs, x: x}, bcDepRes{v: id}))}
}

// callAttrs numbers a call site's attribute list: its function attributes
// and those of its return value and arguments (depAttrs's answer, in a
// parse and in a replay).
func (a *bcw) callAttrs(off int, fn []bcFnPart, slots []bcSlot) uint64 {
	return a.attr.list(off, append([]bcSlot{{bcFnIndex, a.fnAttrs(fn)}}, slots...))
}

// fnAttrs is the function attributes of a call site, groups expanded.
func (a *bcw) fnAttrs(parts []bcFnPart) Attrs {
	var out Attrs
	for _, pt := range parts {
		if pt.group >= 0 {
			out = append(out, a.attr.groupAttrs(0, []int{pt.group})...)
		} else {
			out = append(out, pt.attr)
		}
	}
	return out
}

// bcBody is a kept body: what writing it needs that no module decides,
// as byte streams of unsigned varints (a kept instruction takes about a
// tenth of its parsed form: a cache of a few thousand bodies stays small).
type bcBody struct {
	nargs, nblocks int
	ndeps          int
	insts          []byte // per instruction: code, flags, [loc], [attachments], fields
	names          []byte // the value symbol table, its names encoded (keptNames)
	deps           []byte // per dep: kind, then what its kind needs
	types          []*Type
	named          []*Type // the named structs among types and in them
	extras         []bcDepExtra
	blocks         map[string]int // by label, for a blockaddress elsewhere
}

// size is about the bytes b holds.
func (b *bcBody) size() int {
	const perType, perExtra, perBlock = 64, 64, 48
	return len(b.insts) + len(b.names) + len(b.deps) + perType*len(b.types) + perExtra*len(b.extras) + perBlock*len(b.blocks)
}

// The flags of a kept instruction.
const (
	kiResult = 1 << iota // it defines a value
	kiFwd                // an operand is a forward reference
	kiLoc                // a !dbg node follows (its dep)
	kiAttach             // attachments follow: their count, then kind and node deps
)

// The kinds of a kept field, each followed by its value.
const (
	kLit       = iota // the value
	kLocalAbs         // the local value v's number: the function's first + v
	kConstRel         // dep v's constant, relative to the instruction
	kConstSRel        // the same, signed (phi)
	kConstAbs         // dep v's constant's number
	kDep              // dep v's answer
)

type bcKName struct {
	index int
	name  string
}

// bcReader reads a kept stream.
type bcReader struct {
	b []byte
	i int
}

func (r *bcReader) uv() uint64 {
	if c := r.b[r.i]; c < 0x80 { // most values of a kept body: one byte
		r.i++
		return uint64(c)
	}
	v, n := binary.Uvarint(r.b[r.i:])
	r.i += n
	return v
}

func (r *bcReader) byte() byte {
	c := r.b[r.i]
	r.i++
	return c
}

// cached returns the kept body of f, if another module kept one with the
// same bytes, with its deps answered by this module's tables (f.kept,
// f.res). Otherwise it notes that the body was met, and asks for it to be
// kept when met the second time (keep).
func (c *BodyCache) cached(a *bcw, f *bcFunc) (hit, keep bool, key bcBodyKey) {
	key = a.bodyKey(f)
	c.mu.Lock()
	t := c.kept[key]
	if t == nil {
		keep = c.seen[key]
		c.seen[key] = true
	}
	c.mu.Unlock()
	if t == nil || !a.sameNamedTypes(t) {
		return false, keep, key
	}
	c.shared.Add(1)
	a.replay(f, t)
	return true, false, key
}

// sameNamedTypes reports whether this module defines every named struct
// the kept body uses as the module that kept it did: the same text means
// the same body only then (modules of one split always do).
func (a *bcw) sameNamedTypes(t *bcBody) bool {
	for _, kt := range t.named {
		mt := a.m.NamedType(kt.Name)
		if mt == nil || mt.Opaque != kt.Opaque || mt.Packed != kt.Packed || len(mt.Fields) != len(kt.Fields) {
			return false
		}
		for i, f := range mt.Fields {
			if bcTypeKey(f) != bcTypeKey(kt.Fields[i]) {
				return false
			}
		}
	}
	return true
}

// bodyKey is f's key in a BodyCache.
func (a *bcw) bodyKey(f *bcFunc) bcBodyKey {
	text, params := a.bodyText(f), bcParamNames(f)
	key := bcBodyKey{gen: a.gen, opq: a.opq}
	for i, seed := range bodySeeds {
		key.sum[2*i] = maphash.Bytes(seed, text)
		key.sum[2*i+1] = maphash.Bytes(seed, params)
	}
	return key
}

// holds says whether the cache keeps a body under key.
func (c *BodyCache) holds(key bcBodyKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kept[key] != nil
}

// keep stores f's body, parsed in this module, for other modules, when
// nothing its parse did was outside its deps.
func (c *BodyCache) keep(a *bcw, key bcBodyKey, f *bcFunc) {
	if f.noCache {
		return
	}
	if b := a.compact(f); b != nil {
		c.store(key, b)
	}
}

// store keeps b under key, unless a body is kept there already, and drops
// the bodies kept first while the cache is over its limit.
func (c *BodyCache) store(key bcBodyKey, b *bcBody) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept[key] != nil {
		return
	}
	c.kept[key] = b
	c.order = append(c.order, key)
	c.size += b.size()
	for c.size > c.limit && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= c.kept[old].size()
		delete(c.kept, old)
	}
}

func (a *bcw) bodyText(f *bcFunc) []byte {
	b := f.e.Func.body
	return a.m.Src[b.Start:b.End]
}

// bcParamNames is f's parameters' names, which number the body's values
// with the body's own: two functions with the same body and other
// parameters do not share it.
func bcParamNames(f *bcFunc) []byte {
	var b []byte
	for _, prm := range f.e.Func.Params {
		b = append(b, prm.Name...)
		b = append(b, 0)
	}
	return b
}

// replay makes f (this module's function, its header read) write the kept
// body t: the function's attachments are numbered, then every dep of t is
// asked again of this module's tables in t's order, as a parse of the
// body would. A constant is parsed again from this module's text, at its
// offset in the body.
func (a *bcw) replay(f *bcFunc, t *bcBody) {
	f.kept, f.nargs, f.blocks = t, t.nargs, t.blocks
	f.bodyStart = int(f.e.Func.body.Start)
	a.funcAttachments(f)
	// The answers go where a parse's would: bcw.deps and bcw.res stay
	// the same length (the entries of bcw.deps are not read: t has them).
	n := t.ndeps
	if cap(a.res)-len(a.res) < n {
		a.moveDeps(len(a.res), n)
	}
	base := len(a.res)
	a.res = a.res[:base+n]
	if a.recordDeps {
		a.deps = slices.Grow(a.deps, base+n-len(a.deps))[:base+n]
	}
	f.res = a.res[base : base+n : base+n]
	p, r := a.p, bcReader{b: t.deps}
	for i := range n {
		var res bcDepRes
		switch r.byte() {
		case depType:
			res.v = uint64(a.tys.id(t.types[r.uv()], f.bodyStart))
		case depSmallInt:
			ty := t.types[r.uv()]
			res.c = a.consts.smallInt(ty, r.uv())
		case depConst:
			ty := t.types[r.uv()]
			p.reset(f.bodyStart + int(r.uv()))
			if x := int(r.uv()) - 1; x >= 0 {
				a.consts.asmFnTy = t.extras[x].fnTy
			}
			res.c = a.consts.parse(ty)
			a.consts.asmFnTy = nil
		case depIntOne:
			res.c = a.intOne()
		case depKind:
			res.v = a.md.kind(t.extras[r.uv()].name)
		case depMD:
			res.md = a.md.attachment(Attachment{refID: t.extras[r.uv()].refID}, f.bodyStart)
		case depAttrs:
			x := t.extras[r.uv()]
			res.v = a.callAttrs(f.bodyStart, x.fn, x.slots)
		}
		f.res[i] = res
	}
}
