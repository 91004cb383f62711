package llvmir

import (
	"bytes"
	"io"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
)

// The bitcode writer: a module's text assembled into LLVM bitcode, as
// llvm-as of the module's LLVM generation writes it (what llvm-dis reads
// back is the same module). It reuses this package's lexer, type,
// attribute and header parsers; function bodies, constants and metadata
// are parsed here into the values the records need. Typed-pointer text
// (LLVM 15 and older) gives typed pointer types; opaque-pointer text
// gives opaque ones, which every LLVM since 15 reads.
//
// The module is read in one pass over its entities: types, values and
// metadata are numbered as they are met, bodies parsed into instructions
// that reference values through slots resolved when the function ends,
// and then the whole file is written: identification, the module block
// (attributes, types, globals, constants, metadata, function bodies) and
// the string table. The same text always gives the same bytes.
//
// What the writer does not know is a positioned error (file:line:col),
// never bitcode that means something else.

// BitcodeOptions says which LLVM generation the bitcode is for.
type BitcodeOptions struct {
	// LLVM is the major version of the LLVM that reads the bitcode (14,
	// 15, 19, 22, …); 0 takes it from the text: 15 for typed pointers,
	// 19 otherwise. It decides the encodings that changed between
	// versions (attributes, debug records, metadata fields).
	LLVM int

	// Bodies, when set, shares the parse of function bodies among the
	// modules written with it (bcw_bodies.go): a body met in an earlier
	// module is not parsed again. The bitcode is the same bytes with it
	// or without.
	Bodies *BodyCache
}

// WriteBitcode assembles the module's text as LLVM bitcode to w. Nothing
// is written when the module holds a construct the writer does not know:
// the error names it by file:line:col.
func (m *Module) WriteBitcode(w io.Writer, opt BitcodeOptions) error {
	b, err := m.AssembleBitcode(opt)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// AssembleBitcode returns the module's text assembled as LLVM bitcode.
func (m *Module) AssembleBitcode(opt BitcodeOptions) (out []byte, err error) {
	a := newBCW(m, opt)
	// A module's bitcode is about a third of its text, without debug
	// information; with it, less.
	a.s.Grow(len(m.Src) / 3)
	a.slabs = bcSlabPool.Get().(*bcSlabs)
	a.deps, a.res = a.slabs.deps, a.slabs.res
	defer func() {
		a.slabs.release()
		a.slabs.deps, a.slabs.res = a.deps[:0], a.res[:0]
		bcSlabPool.Put(a.slabs)
	}()
	if e := a.p.guard(a.run); e != nil {
		return nil, e
	}
	if b, ok, err := a.s.Bytes(); ok || err != nil {
		return b, err
	}
	var buf bytes.Buffer
	buf.Grow(int(a.s.Size()))
	if _, err := a.s.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AssembleBitcode parses src (named file in messages) and assembles it.
func AssembleBitcode(file string, src []byte, opt BitcodeOptions) ([]byte, error) {
	m, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	return m.AssembleBitcode(opt)
}

// bcw is the state of one module being written.
type bcw struct {
	m    *Module
	p    *parser
	s    *bitcode.StreamWriter
	gen  int
	opq  bool // opaque pointers
	tys  bcTypes
	attr bcAttrs
	md   bcMeta

	gvals   []*Entity // global values in value-number order
	gvalID  map[*Entity]int
	consts  bcConsts
	funcs   []*bcFunc // bodies, in the order of their FUNCTION records
	strtab  []byte
	sects   bcNames
	gcs     bcNames
	comdats bcNames
	bundles bcNames
	scopes  bcNames

	// Scratch and slabs for function bodies (bcw_func.go).
	byName    bcLocalTab
	nums      []*bcLocal
	localSlab []bcLocal
	instSlab  []bcInst
	opSlab    []bcOp
	fieldSlab []bcField

	localN, instN, opN, fieldN int // the last slabs' sizes
	slabs                      *bcSlabs
	fnAbbrevs                  bcFnAbbrevs
	cur                        *bcFunc // the body being parsed
	bodies                     *BodyCache
	keptVals                   []uint64  // scratch of writeKept
	names                      []bcKName // scratch of writeLocalNames

	// The deps of the module's bodies and their answers (bcw_bodies.go),
	// and the types the body being parsed asked. recordDeps says to keep
	// the deps, not only their answers: the bodies may be kept.
	recordDeps bool
	deps       []bcDep
	res        []bcDepRes
	asked      map[*Type]int32
	// The type asked last and its dep: most operands of a run of
	// instructions have one type.
	lastAsked    *Type
	lastAskedDep int32
}

// bcNames numbers names in order of first use (sections, GC names,
// comdats, bundle tags, sync scopes).
type bcNames struct {
	ids   map[string]int
	names []string
}

func (n *bcNames) id(s string) int {
	if n.ids == nil {
		n.ids = map[string]int{}
	}
	if i, ok := n.ids[s]; ok {
		return i
	}
	n.ids[s] = len(n.names)
	n.names = append(n.names, s)
	return len(n.names) - 1
}

func newBCW(m *Module, opt BitcodeOptions) *bcw {
	p := &parser{m: m, file: m.File, src: m.Src, lx: lexer{src: m.Src, end: len(m.Src)}, lines: &m.lines}
	a := &bcw{m: m, p: p, s: bitcode.NewStreamWriter(), gen: opt.LLVM, gvalID: map[*Entity]int{}, bodies: opt.Bodies, recordDeps: opt.Bodies != nil}
	typed := hasTypedPointers(m)
	if a.gen == 0 {
		a.gen = 19
		if typed {
			a.gen = 15
		}
	}
	// LLVM 17 and newer read typed-pointer syntax as opaque pointers.
	a.opq = !typed || a.gen >= 17
	a.tys.init(a)
	a.attr.init(a)
	a.consts.init(a)
	a.md.init(a)
	a.scopes.id("singlethread")
	a.scopes.id("")
	return a
}

// hasTypedPointers reports whether the module's text uses typed pointers:
// a "*" after a type in any global's header.
func hasTypedPointers(m *Module) bool {
	for _, e := range m.Entities {
		var ts []*Type
		switch e.Kind {
		case KindGlobalVar:
			ts = append(ts, e.Var.Type)
		case KindFunction:
			ts = append(ts, e.Func.RetType)
			for _, p := range e.Func.Params {
				ts = append(ts, p.Type)
			}
		case KindAlias, KindIFunc:
			ts = append(ts, e.Alias.Type)
		case KindTypeDef:
			ts = append(ts, e.TypeDef)
		}
		for _, t := range ts {
			if t != nil && typedIn(t, 0) {
				return true
			}
		}
	}
	return bytes.Contains(m.Src, []byte("* ")) && !hasPtrWord(m.Src)
}

// hasPtrWord reports whether src holds the word "ptr" (the opaque pointer
// type), not a part of a longer word such as ptrtoint nor a name (%ptr).
func hasPtrWord(src []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("ptr"))
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !isIdent(src[j-1]) && src[j-1] != '%' && src[j-1] != '@' && src[j-1] != '!') && (j+3 == len(src) || !isIdent(src[j+3])) {
			return true
		}
		i = j + 3
	}
}

func typedIn(t *Type, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	switch t.Kind {
	case PtrType:
		return t.Elem != nil
	case ArrayType, VectorType:
		return typedIn(t.Elem, depth+1)
	case StructType:
		for _, f := range t.Fields {
			if typedIn(f, depth+1) {
				return true
			}
		}
	case FuncType:
		if typedIn(t.Ret, depth+1) {
			return true
		}
		for _, f := range t.Fields {
			if typedIn(f, depth+1) {
				return true
			}
		}
	}
	return false
}

// unsupported fails at off: a construct the writer does not know.
func (a *bcw) unsupported(off int, what string) {
	a.p.fail(off, "bitcode writer: "+what+" is not supported")
}

// run reads the whole module, then writes it.
func (a *bcw) run() {
	globals := a.prelude()
	a.parseBodies()
	a.md.finish()
	a.write(globals)
}

// prelude numbers the module's global values and types, and makes the
// records of its global values (and the bodies' headers, a.funcs).
func (a *bcw) prelude() [][]uint64 {
	m := a.m
	// Global values are numbered in the order LLVM's reader gives them:
	// variables, functions, aliases, ifuncs, each in source order.
	for _, k := range []Kind{KindGlobalVar, KindFunction, KindAlias, KindIFunc} {
		for _, e := range m.Entities {
			if e.Kind == k {
				a.gvalID[e] = len(a.gvals)
				a.gvals = append(a.gvals, e)
			}
		}
	}
	a.consts.base = len(a.gvals)
	for _, e := range m.Entities {
		switch e.Kind {
		case KindModuleAsm:
			// Written as one record below.
		case KindTypeDef:
			a.tys.id(e.TypeDef, e.Off)
		case KindUseListOrder:
			// Use-list orders are left out: they change no instruction's
			// meaning, and llvm-dis does not print them.
		case KindSummary:
			a.unsupported(e.Off, e.Kind.String())
		}
	}
	globals := make([][]uint64, 0, len(a.gvals))
	for _, e := range a.gvals {
		switch e.Kind {
		case KindGlobalVar:
			globals = append(globals, a.globalVar(e))
		case KindFunction:
			globals = append(globals, a.function(e))
		default:
			globals = append(globals, a.alias(e))
		}
	}
	for _, e := range m.Entities {
		if e.Kind == KindNamedMD {
			a.md.named(e)
		}
	}
	return globals
}

// parseBodies parses the function bodies in order, or takes them from the
// BodyCache, or from the helper that parses them from the last on
// (bcw_ahead.go).
func (a *bcw) parseBodies() {
	h := a.startAhead()
	defer h.finish()
	for i, f := range a.funcs {
		t := h.take(i)
		var hit, keep bool
		var key bcBodyKey
		if a.bodies != nil {
			hit, keep, key = a.bodies.cached(a, f)
		}
		switch {
		case hit:
		case t != nil:
			a.replay(f, t)
		default:
			a.parseBody(f)
		}
		switch {
		case keep && t != nil:
			a.bodies.store(key, t)
		case keep:
			a.bodies.keep(a, key, f)
		}
	}
}

// strtabRef adds a name to the string table and returns offset and size.
func (a *bcw) strtabRef(name string) (uint64, uint64) {
	off := uint64(len(a.strtab))
	a.strtab = append(a.strtab, name...)
	return off, uint64(len(name))
}

func bcChars(s string) []uint64 {
	v := make([]uint64, len(s))
	for i := 0; i < len(s); i++ {
		v[i] = uint64(s[i])
	}
	return v
}

var bcLinkages = map[Linkage]uint64{
	External: 0, Weak: 16, Appending: 2, Internal: 3, LinkOnce: 18, ExternWeak: 7,
	Common: 8, Private: 9, WeakODR: 17, LinkOnceODR: 19, AvailableExternally: 12,
}

var bcVisibility = map[string]uint64{"": 0, "default": 0, "hidden": 1, "protected": 2}
var bcDLL = map[string]uint64{"": 0, "dllimport": 1, "dllexport": 2}
var bcUnnamed = map[string]uint64{"": 0, "unnamed_addr": 1, "local_unnamed_addr": 2}
var bcTLS = map[string]uint64{
	"": 0, "thread_local": 1, "thread_local(localdynamic)": 2, "thread_local(initialexec)": 3,
	"thread_local(localexec)": 4,
}

// dsoLocal is the preemption specifier as bitcode writes it: local linkage
// implies dso_local.
func dsoLocal(h *GlobalHeader) uint64 {
	if h.Preemption == "dso_local" || h.Linkage.IsLocal() || (h.Visibility != "" && h.Visibility != "default") {
		return 1
	}
	return 0
}

func bcAlign(off int, a *bcw, n uint64) uint64 {
	if n == 0 {
		return 0
	}
	if n&(n-1) != 0 || n > 1<<32 {
		a.p.fail(off, "alignment must be a power of two up to 2^32")
	}
	k := uint64(0)
	for n > 1 {
		n >>= 1
		k++
	}
	return k + 1
}

func (a *bcw) comdatID(e *Entity, name string) uint64 {
	if name == "" {
		return 0
	}
	c := a.m.ComdatNamed(name)
	if c == nil {
		a.p.fail(e.Off, "unknown comdat $"+name)
	}
	return uint64(a.comdats.id(name)) + 1
}

func (a *bcw) section(s string) uint64 {
	if s == "" {
		return 0
	}
	return uint64(a.sects.id(s)) + 1
}

// globalVar reads a global variable into its GLOBALVAR record.
func (a *bcw) globalVar(e *Entity) []uint64 {
	g := e.Var
	off, size := a.strtabRef(bcName(e))
	flags := uint64(g.AddrSpace)<<2 | 2
	if g.Constant {
		flags |= 1
	}
	var init uint64
	if g.Init != "" {
		c := a.consts.parseAt(int(g.initAt.Start), g.Type)
		init = uint64(a.consts.id(c)) + 1
	}
	tls := bcTLS[g.ThreadLocal]
	// Sanitizer properties are bits of one field, the code model (LLVM
	// 18 and newer) one more.
	var sanitizer, codeModel uint64
	for _, o := range g.Other {
		if b, ok := bcSanitizer[o]; ok {
			sanitizer |= b
			continue
		}
		if m, ok := bcCodeModels[o]; ok {
			codeModel = m
			continue
		}
		a.unsupported(e.Off, "the global variable property '"+o+"'")
	}
	var attrs uint64
	if len(g.Attrs) > 0 || len(g.AttrGroups) > 0 {
		attrs = a.attr.globalList(e, g.Attrs, g.AttrGroups)
	}
	var partOff, partSize uint64
	if g.Partition != "" {
		partOff, partSize = a.strtabRef(g.Partition)
	}
	ext := uint64(0)
	if g.ExternallyInitialized {
		ext = 1
	}
	a.md.globalAttachments(e, g.Attachments)
	return []uint64{bitcode.ModuleCodeGlobalVar, off, size, uint64(a.tys.id(g.Type, e.Off)), flags, init,
		bcLinkages[g.Linkage], bcAlign(e.Off, a, g.Align), a.section(g.Section), bcVisibility[g.Visibility],
		tls, bcUnnamed[g.UnnamedAddr], ext, bcDLL[g.DLLStorage], a.comdatID(e, g.Comdat), attrs,
		dsoLocal(&g.GlobalHeader), partOff, partSize, sanitizer, codeModel}
}

var bcSanitizer = map[string]uint64{
	"no_sanitize_address": 1, "no_sanitize_hwaddress": 2, "sanitize_memtag": 4, "sanitize_address_dyninit": 8,
}

var bcCodeModels = map[string]uint64{
	`code_model "tiny"`: 1, `code_model "small"`: 2, `code_model "kernel"`: 3, `code_model "medium"`: 4,
	`code_model "large"`: 5,
}

// function reads a function header into its FUNCTION record and queues
// its body.
func (a *bcw) function(e *Entity) []uint64 {
	f := e.Func
	off, size := a.strtabRef(bcName(e))
	ft := a.tys.id(f.Type(), e.Off)
	cc := a.callingConv(e.Off, f.CallingConv)
	proto := uint64(0)
	if f.Declaration {
		proto = 1
	}
	attrs := a.attr.functionList(e)
	var gc uint64
	if f.GC != "" {
		gc = uint64(a.gcs.id(f.GC)) + 1
	}
	constOf := func(text string) uint64 {
		if text == "" {
			return 0
		}
		at := strings.Index(str(e.Text), text)
		if at < 0 {
			a.unsupported(e.Off, "this function property")
		}
		a.p.reset(e.Off + at)
		t := a.p.parseType()
		c := a.consts.parse(t)
		return uint64(a.consts.id(c)) + 1
	}
	prologue, prefix, personality := constOf(f.Prologue), constOf(f.Prefix), constOf(f.Personality)
	var partOff, partSize uint64
	if f.Partition != "" {
		partOff, partSize = a.strtabRef(f.Partition)
	}
	if f.Declaration {
		a.md.globalAttachments(e, f.Attachments)
	} else {
		a.funcs = append(a.funcs, &bcFunc{e: e, ent: e})
	}
	return []uint64{bitcode.ModuleCodeFunction, off, size, uint64(ft), cc, proto, bcLinkages[f.Linkage], attrs,
		bcAlign(e.Off, a, f.Align), a.section(f.Section), bcVisibility[f.Visibility], gc, bcUnnamed[f.UnnamedAddr],
		prologue, bcDLL[f.DLLStorage], a.comdatID(e, f.Comdat), prefix, personality, dsoLocal(&f.GlobalHeader),
		uint64(f.AddrSpace), partOff, partSize}
}

// alias reads an alias or ifunc into its record.
func (a *bcw) alias(e *Entity) []uint64 {
	al := e.Alias
	off, size := a.strtabRef(bcName(e))
	// The aliasee follows the header: find it after the type.
	a.p.reset(e.Off)
	for !(a.p.tok.kind == tIdent && (a.p.isIdent("alias") || a.p.isIdent("ifunc"))) {
		if a.p.tok.kind == tEOF {
			a.unsupported(e.Off, "this alias")
		}
		a.p.next()
	}
	a.p.next()
	vt := a.p.parseType()
	a.p.expectPunct(',')
	var t *Type
	if a.p.untypedResolver(al.IFunc) {
		// A typed-pointer ifunc writes its resolver without a type.
		t = &Type{Kind: PtrType, Elem: &Type{Kind: FuncType, Ret: &Type{Kind: PtrType, Elem: vt}}}
	} else {
		t = a.p.parseType()
	}
	c := a.consts.parse(t)
	target := uint64(a.consts.id(c))
	as := uint64(0)
	if t.Kind == PtrType {
		as = uint64(t.AddrSpace)
	}
	var partOff, partSize uint64
	for a.p.acceptPunct(',') {
		if a.p.isIdent("partition") {
			a.p.next()
			partOff, partSize = a.strtabRef(a.p.expectString())
			continue
		}
		a.unsupported(a.p.tok.start, "this alias property")
	}
	if al.IFunc {
		return []uint64{bitcode.ModuleCodeIFunc, off, size, uint64(a.tys.id(al.Type, e.Off)), as, target,
			bcLinkages[al.Linkage], bcVisibility[al.Visibility], dsoLocal(&al.GlobalHeader), partOff, partSize}
	}
	return []uint64{bitcode.ModuleCodeAlias, off, size, uint64(a.tys.id(al.Type, e.Off)), as, target,
		bcLinkages[al.Linkage], bcVisibility[al.Visibility], bcDLL[al.DLLStorage], bcTLS[al.ThreadLocal],
		bcUnnamed[al.UnnamedAddr], dsoLocal(&al.GlobalHeader), partOff, partSize}
}

// callingConvs numbers the named calling conventions (llvm/IR/CallingConv.h).
var bcCallingConvs = map[string]uint64{
	"": 0, "ccc": 0, "fastcc": 8, "coldcc": 9, "ghccc": 10, "cc 10": 10, "webkit_jscc": 12, "anyregcc": 13,
	"preserve_mostcc": 14, "preserve_allcc": 15, "swiftcc": 16, "cxx_fast_tlscc": 17, "tailcc": 18,
	"cfguard_checkcc": 19, "swifttailcc": 20, "preserve_nonecc": 21,
	"x86_stdcallcc": 64, "x86_fastcallcc": 65, "arm_apcscc": 66, "arm_aapcscc": 67, "arm_aapcs_vfpcc": 68,
	"msp430_intrcc": 69, "x86_thiscallcc": 70, "ptx_kernel": 71, "ptx_device": 72, "spir_func": 75,
	"spir_kernel": 76, "intel_ocl_bicc": 77, "x86_64_sysvcc": 78, "win64cc": 79, "x86_vectorcallcc": 80,
	"hhvmcc": 81, "hhvm_ccc": 82, "x86_intrcc": 83, "avr_intrcc": 84, "avr_signalcc": 85,
	"amdgpu_vs": 87, "amdgpu_gs": 88, "amdgpu_ps": 89, "amdgpu_cs": 90, "amdgpu_kernel": 91,
	"x86_regcallcc": 92, "amdgpu_hs": 93, "amdgpu_ls": 95, "amdgpu_es": 96, "aarch64_vector_pcs": 97,
	"aarch64_sve_vector_pcs": 98, "amdgpu_gfx": 100, "m68k_intrcc": 101,
	"aarch64_sme_preservemost_from_x0": 102, "aarch64_sme_preservemost_from_x2": 103, "amdgpu_cs_chain": 104,
	"amdgpu_cs_chain_preserve": 105, "m68k_rtdcc": 106, "graalcc": 107, "riscv_vector_cc": 110,
	"aarch64_sme_preservemost_from_x1": 111,
}

func (a *bcw) callingConv(off int, cc string) uint64 {
	if v, ok := bcCallingConvs[cc]; ok {
		return v
	}
	if strings.HasPrefix(cc, "cc ") {
		n := 0
		for _, c := range cc[3:] {
			n = n*10 + int(c-'0')
		}
		return uint64(n)
	}
	a.unsupported(off, "the calling convention "+cc)
	return 0
}

// write writes the whole file.
func (a *bcw) write(globals [][]uint64) {
	s, m := a.s, a.m
	s.Magic()
	s.EnterBlock(bitcode.IdentificationBlockID, 5)
	s.Record(bitcode.IdentificationCodeString, bcChars("LLVM"+itoa(a.gen)+".0.0sycbuild")...)
	s.Record(bitcode.IdentificationCodeEpoch, bitcode.BitcodeCurrentEpoch)
	s.ExitBlock()

	s.EnterBlock(bitcode.ModuleBlockID, 3)
	s.Record(bitcode.ModuleCodeVersion, 2)
	a.writeBlockInfo()
	// Types first: type attributes (sret(T), byval(T)) name types.
	a.tys.write()
	a.attr.write()
	for _, e := range m.Entities {
		switch e.Kind {
		case KindTriple:
			s.Record(bitcode.ModuleCodeTriple, bcChars(e.Str)...)
		case KindDataLayout:
			s.Record(bitcode.ModuleCodeDatalayout, bcChars(e.Str)...)
		}
	}
	var asm []string
	for _, e := range m.Entities {
		if e.Kind == KindModuleAsm {
			asm = append(asm, e.Str)
		}
	}
	if len(asm) > 0 {
		s.Record(bitcode.ModuleCodeAsm, bcChars(strings.Join(asm, "\n"))...)
	}
	for _, n := range a.sects.names {
		s.Record(bitcode.ModuleCodeSectionName, bcChars(n)...)
	}
	for _, n := range a.gcs.names {
		s.Record(bitcode.ModuleCodeGCName, bcChars(n)...)
	}
	for _, n := range a.comdats.names {
		off, size := a.strtabRef(n)
		s.Record(bitcode.ModuleCodeComdat, off, size, bcComdatKinds[a.m.ComdatNamed(n).Comdat.Selection])
	}
	for _, g := range globals {
		s.Record(g[0], g[1:]...)
	}
	// Without a source_filename, llvm-as names the file it read.
	srcName, hasSrc := m.File, false
	for _, e := range m.Entities {
		if e.Kind == KindSourceFilename {
			srcName, hasSrc = e.Str, true
		}
	}
	if hasSrc || srcName != "" {
		s.Record(bitcode.ModuleCodeSourceFilename, bcChars(srcName)...)
	}
	a.consts.write(a.consts.list, 0)
	a.md.writeKinds()
	a.md.writeModule()
	if len(a.bundles.names) > 0 {
		s.EnterBlock(bitcode.OperandBundleTagsBlockID, 3)
		for _, n := range a.bundles.names {
			s.Record(bitcode.OperandBundleTag, bcChars(n)...)
		}
		s.ExitBlock()
	}
	s.EnterBlock(bitcode.SyncScopeNamesBlockID, 2)
	for _, n := range a.scopes.names {
		s.Record(bitcode.SyncScopeName, bcChars(n)...)
	}
	s.ExitBlock()
	for _, f := range a.funcs {
		a.writeBody(f)
	}
	s.ExitBlock()

	s.EnterBlock(bitcode.StrtabBlockID, 3)
	blob := s.DefineAbbrev(bitcode.Literal(bitcode.StrtabBlob), bitcode.Blob())
	s.AbbrevRecord(blob, nil, a.strtab, nil)
	s.ExitBlock()
}

var bcComdatKinds = map[string]uint64{"any": 1, "exactmatch": 2, "largest": 3, "nodeduplicate": 4, "noduplicates": 4, "samesize": 5}

// bcName is a global value's name in the string table: none for an
// unnamed one (@0).
func bcName(e *Entity) string {
	if e.Numbered {
		return ""
	}
	return e.Name
}
