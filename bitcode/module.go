package bitcode

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// decoder holds the state of one Disassemble or Info call.
type decoder struct {
	// spareBuf and spareInsts are the last function's instruction text and
	// records, reused by the next function.
	spareBuf   []byte
	spareInsts []instRec
	// spareNames and spareBBNames are the last function's symbol table,
	// emptied, reused by the next function.
	spareNames, spareBBNames []string

	// The bitstream, the record last read and the entered blocks.
	bitstream.Reader
	budget int64

	producer       string
	strtab         []byte
	version        uint64
	triple         string
	datalayout     string
	sourceFilename string
	asm            []string
	sections, gcs  []string
	comdats        []string // names; kinds in comdatKinds
	comdatKinds    []uint64
	vstOffset      uint64
	sawModuleVST   bool

	types     []*typ
	typeByStr map[string]int32
	typed     bool

	attrGroups map[uint64]*attrGroup
	attrLists  [][]*attrGroup
	groupOrder []*attrGroup

	vals        []value
	consts      []*constant
	globals     []*global
	nModuleVals int
	bodies      []*global // functions with bodies, in record order
	nextBody    int

	mds            []*mdEntry
	nModuleMDs     int
	mdNext         int // next output number of a metadata node
	mdKinds        map[uint64]string
	namedMD        []namedMD
	allMD          []*mdEntry // every node, module and function scope
	locs           map[dilocKey]int32
	numberedModule bool
	declCursor     int
	groupList      []*attrGroup
	syncScopes     []string
	bundleTags     []string
	blockNames     map[int32][]string // function value id -> block labels (for blockaddress)

	fn *funcState // the function being decoded

	// constSlab and opSlab are where constants and their operands are
	// allocated, in chunks (newConstant, keepOps).
	constSlab []constant
	opSlab    []uint64
	// valMarkers are the markers of local values by number, each made
	// once: the same numbers come back in every function.
	valMarkers []string

	op    opr // the instruction record being read (one, reused: not one allocation each)
	depth int // constant rendering depth

	out []byte
}

// value kinds.
const (
	vGlobal = iota
	vConst
	vArg
	vInst
	vFwd // referenced before its definition, type from the reference
)

type value struct {
	ty   int32
	kind uint8
	idx  int32 // global or constant index
}

// global kinds.
const (
	gVar = iota
	gFunc
	gAlias
	gIFunc
)

type global struct {
	kind       uint8
	id         int32 // value id
	name       string
	named      bool
	num        int    // number of an unnamed global
	valTy      int32  // value type: the variable's, the function's type, the alias's
	as         uint64 // address space
	rec        []uint64
	attach     []mdAttach
	body       []byte // function body, rendered
	argText    []string
	callGroups []*attrGroup // call-site function attributes, in order
	fnAttach   string       // a body's attachments, rendered
}

type mdAttach struct {
	kind uint64
	md   uint64
	gid  int32 // the node, when known (-1: none)
}

type namedMD struct {
	name string
	ops  []uint64
}

var linkages = map[uint64]string{
	0: "", 1: "weak ", 2: "appending ", 3: "internal ", 4: "linkonce ", 5: "", 6: "",
	7: "extern_weak ", 8: "common ", 9: "private ", 10: "weak_odr ", 11: "linkonce_odr ",
	12: "available_externally ", 13: "private ", 14: "private ", 15: "linkonce_odr ",
	16: "weak ", 17: "weak_odr ", 18: "linkonce ", 19: "linkonce_odr ",
}

func isLocalLinkage(l uint64) bool { return l == 3 || l == 9 || l == 13 || l == 14 }

var visibilities = [...]string{"", "hidden ", "protected "}
var dllStorage = [...]string{"", "dllimport ", "dllexport "}
var tlsModes = [...]string{"", "thread_local ", "thread_local(localdynamic) ", "thread_local(initialexec) ", "thread_local(localexec) "}
var unnamedAddrs = [...]string{"", "unnamed_addr ", "local_unnamed_addr "}
var comdatKinds = [...]string{1: "any", 2: "exactmatch", 3: "largest", 4: "nodeduplicate", 5: "samesize"}

func pick(tab []string, i uint64, what string, d *decoder) string {
	if i >= uint64(len(tab)) {
		d.failf("bad %s %d", what, i)
	}
	return tab[i]
}

// parseModule decodes MODULE_BLOCK (positioned after its id) and renders
// the module into d.out.
func (d *decoder) parseModule() {
	b := d.EnterBlock(ModuleBlockID)
	d.mdKinds = map[uint64]string{}
	d.locs = map[dilocKey]int32{}
	for {
		kind, id := d.Next(b)
		if kind == bitstream.End {
			break
		}
		if kind == bitstream.Subblock {
			switch id {
			case BlockInfoBlockID:
				d.ReadBlockInfo()
			case ParamAttrGroupBlockID:
				d.parseAttrGroups()
			case ParamAttrBlockID:
				d.parseAttrLists()
			case TypeBlockIDNew:
				d.parseTypeTable()
			case ConstantsBlockID:
				d.parseConstants()
			case MetadataBlockID:
				d.parseMetadata()
				d.nModuleMDs = len(d.mds)
			case MetadataKindBlockID:
				d.parseMetadataKinds()
			case OperandBundleTagsBlockID:
				d.bundleTags = d.parseStrings(id, OperandBundleTag)
			case SyncScopeNamesBlockID:
				d.syncScopes = d.parseStrings(id, SyncScopeName)
			case ValueSymtabBlockID:
				if d.sawModuleVST {
					d.SkipBlock(id)
				} else {
					d.parseModuleVST(id)
				}
			case FunctionBlockID:
				if d.nModuleVals == 0 {
					d.nModuleVals = len(d.vals)
					d.nModuleMDs = len(d.mds)
					d.finishGlobals()
				}
				if d.version < 2 && d.vstOffset > 0 && !d.sawModuleVST {
					save := d.Pos
					d.Pos = d.vstOffset * 32
					d.RecPos = int64(d.Pos / 8)
					if d.Pos+32 > d.NBits || d.Bits(b.Width) != EnterSubblock || d.VBR(8) != ValueSymtabBlockID {
						d.failf("VSTOFFSET does not point at a value symbol table")
					}
					d.parseModuleVST(ValueSymtabBlockID)
					d.Pos = save
				}
				d.parseFunction()
			default:
				d.SkipBlock(id)
			}
			continue
		}
		d.moduleRecord()
	}
	d.Leave()
	if d.nModuleVals == 0 {
		d.nModuleVals = len(d.vals)
		d.nModuleMDs = len(d.mds)
		d.finishGlobals()
	}
	if d.nextBody != len(d.bodies) {
		d.failf("%d function bodies are missing", len(d.bodies)-d.nextBody)
	}
	d.render()
}

func (d *decoder) strOp() string { return opsString(d.Ops) }

func (d *decoder) moduleRecord() {
	ops := d.Ops
	switch d.Code {
	case ModuleCodeVersion:
		if len(ops) < 1 || ops[0] > 2 {
			d.failf("unsupported module version")
		}
		d.version = ops[0]
	case ModuleCodeTriple:
		d.triple = d.strOp()
	case ModuleCodeDatalayout:
		d.datalayout = d.strOp()
	case ModuleCodeAsm:
		d.asm = append(d.asm, strings.Split(d.strOp(), "\n")...)
	case ModuleCodeSectionName:
		d.sections = append(d.sections, d.strOp())
	case ModuleCodeGCName:
		d.gcs = append(d.gcs, d.strOp())
	case ModuleCodeDeplib:
	case ModuleCodeSourceFilename:
		d.sourceFilename = d.strOp()
	case ModuleCodeComdat:
		name, rest := d.nameFromStrtab(ops)
		if len(rest) < 1 {
			d.failf("bad comdat record")
		}
		if d.version < 2 {
			if len(rest) < 2 || rest[1] > uint64(len(rest)-2) {
				d.failf("bad comdat record")
			}
			name = opsString(rest[2 : 2+rest[1]])
		}
		if rest[0] < 1 || rest[0] >= uint64(len(comdatKinds)) {
			d.failf("bad comdat selection kind %d", rest[0])
		}
		d.comdats = append(d.comdats, name)
		d.comdatKinds = append(d.comdatKinds, rest[0])
	case ModuleCodeGlobalVar:
		d.globalVar()
	case ModuleCodeFunction:
		d.function()
	case ModuleCodeAlias, ModuleCodeIFunc, ModuleCodeAliasOld:
		d.indirect()
	case ModuleCodeVSTOffset:
		if len(ops) < 1 {
			d.failf("bad VSTOFFSET")
		}
		d.vstOffset = ops[0]
	case ModuleCodeHash, ModuleCodeMetadataValues:
	default:
		d.failf("unknown record code %d", d.Code)
	}
}

// nameFromStrtab splits a version 2 record into its name and the rest.
func (d *decoder) nameFromStrtab(ops []uint64) (string, []uint64) {
	if d.version < 2 {
		return "", ops
	}
	if len(ops) < 2 {
		d.failf("record too short for a string table name")
	}
	off, n := ops[0], ops[1]
	if off > uint64(len(d.strtab)) || n > uint64(len(d.strtab))-off {
		d.failf("name outside the string table")
	}
	return string(d.strtab[off : off+n]), ops[2:]
}

func (d *decoder) addGlobal(g *global, ty int32) {
	g.id = int32(len(d.vals))
	g.named = g.name != ""
	d.globals = append(d.globals, g)
	d.vals = append(d.vals, value{ty: ty, kind: vGlobal, idx: int32(len(d.globals) - 1)})
}

func (d *decoder) globalVar() {
	name, r := d.nameFromStrtab(d.Ops)
	if len(r) < 6 {
		d.failf("bad global variable record")
	}
	ty := d.tyID(r[0])
	var as uint64
	if r[1]&2 != 0 {
		as = r[1] >> 2
	} else {
		t := d.types[ty]
		if t.kind != tPtr || t.elems == nil {
			d.failf("global variable of non-pointer type")
		}
		as, ty = t.n, t.elems[0]
	}
	g := &global{kind: gVar, name: name, valTy: ty, as: as, rec: append([]uint64(nil), r...)}
	d.addGlobal(g, d.ptrTo(ty, as))
}

func (d *decoder) function() {
	name, r := d.nameFromStrtab(d.Ops)
	if len(r) < 8 {
		d.failf("bad function record")
	}
	ty := d.tyID(r[0])
	if t := d.types[ty]; t.kind == tPtr && t.elems != nil {
		ty = t.elems[0]
	}
	if d.types[ty].kind != tFunc {
		d.failf("function of non-function type")
	}
	var as uint64
	if len(r) > 16 {
		as = r[16]
	} else {
		as = d.programAS()
	}
	g := &global{kind: gFunc, name: name, valTy: ty, as: as, rec: append([]uint64(nil), r...)}
	d.addGlobal(g, d.ptrTo(ty, as))
	if r[2] == 0 {
		d.bodies = append(d.bodies, g)
	}
}

func (d *decoder) indirect() {
	name, r := d.nameFromStrtab(d.Ops)
	old := d.Code == ModuleCodeAliasOld
	if len(r) < 3 || (!old && len(r) < 4) {
		d.failf("bad alias or ifunc record")
	}
	ty := d.tyID(r[0])
	var as uint64
	rest := r[1:]
	if old {
		t := d.types[ty]
		if t.kind != tPtr || t.elems == nil {
			d.failf("alias of non-pointer type")
		}
		as, ty = t.n, t.elems[0]
	} else {
		as = r[1]
		rest = r[2:]
	}
	k := uint8(gAlias)
	if d.Code == ModuleCodeIFunc {
		k = gIFunc
	}
	g := &global{kind: k, name: name, valTy: ty, as: as, rec: append([]uint64(nil), rest...)}
	d.addGlobal(g, d.ptrTo(ty, as))
}

// programAS is the data layout's program address space ("P1").
func (d *decoder) programAS() uint64 { return d.layoutAS('P') }

// allocaAS is the data layout's alloca address space ("A5").
func (d *decoder) allocaAS() uint64 { return d.layoutAS('A') }

func (d *decoder) layoutAS(c byte) uint64 {
	for _, p := range strings.Split(d.datalayout, "-") {
		if len(p) > 1 && p[0] == c {
			if n, err := strconv.ParseUint(p[1:], 10, 32); err == nil {
				return n
			}
		}
	}
	return 0
}

// finishGlobals numbers the unnamed globals as AsmWriter does: variables,
// then aliases, then ifuncs, then functions.
func (d *decoder) finishGlobals() {
	n := 0
	for _, k := range []uint8{gVar, gAlias, gIFunc, gFunc} {
		for _, g := range d.globals {
			if g.kind == k && !g.named {
				g.num = n
				n++
			}
		}
	}
}

// parseModuleVST reads a module-level VALUE_SYMTAB (names of version 0
// and 1 modules; version 2 names are in the string table).
func (d *decoder) parseModuleVST(id uint64) {
	d.sawModuleVST = true
	b := d.EnterBlock(id)
	for d.NextRecord(b) {
		var skip int
		switch d.Code {
		case VSTCodeEntry:
			skip = 1
		case VSTCodeFnEntry:
			skip = 2
		default:
			continue
		}
		if len(d.Ops) < skip || d.version >= 2 {
			continue
		}
		vid := d.Ops[0]
		if vid >= uint64(len(d.vals)) || d.vals[vid].kind != vGlobal {
			d.failf("value symbol table names value %d, not a global", vid)
		}
		g := d.globals[d.vals[vid].idx]
		g.name = opsString(d.Ops[skip:])
		g.named = g.name != ""
	}
	d.Leave()
}

// parseStrings reads a block of one-string records (operand bundle tags,
// sync scope names).
func (d *decoder) parseStrings(id, code uint64) []string {
	b := d.EnterBlock(id)
	var s []string
	for d.NextRecord(b) {
		if d.Code != code {
			d.failf("unknown record code %d", d.Code)
		}
		s = append(s, d.strOp())
	}
	d.Leave()
	return s
}

// globalRef renders a reference to a global value: @name or @N.
func (d *decoder) globalRef(g *global) string {
	if g.named {
		return "@" + quoteName(g.name)
	}
	return "@" + strconv.Itoa(g.num)
}

// render writes the module text.
func (d *decoder) render() {
	d.RecPos, d.RecCode = -1, -1
	d.numberModule()
	d.numberDeclsBefore(-1)
	d.renderMetadata(0, d.nModuleMDs)
	for gid := range d.allMD {
		d.number(int32(gid))
	}
	// The globals and functions first: their text decides the order of
	// the type definitions and the attribute groups' numbers.
	text := d.renderGlobals()

	// The buffers are made with their room, not grown to it: Grow clears
	// the bytes it adds (8% of a large module's disassembly), make
	// has memory the system gave it cleared already.
	w := bytes.NewBuffer(make([]byte, 0, len(text)+len(text)/4+4096))
	d.writeHeader(w)
	if ts := d.typeOrder(text); len(ts) > 0 {
		w.WriteString("\n")
		for _, t := range ts {
			var sb strings.Builder
			d.structBody(&sb, t)
			w.WriteString(t.str + " = type " + sb.String() + "\n")
		}
	}
	// LLVM's printer puts a blank line before each comdat.
	for _, i := range d.comdatOrder() {
		w.WriteString("\n$" + quoteName(d.comdats[i]) + " = comdat " + comdatKinds[d.comdatKinds[i]] + "\n")
	}
	w.Write(text)
	if len(d.groupOrder) > 0 {
		w.WriteString("\n")
		for _, g := range d.groupOrder {
			w.WriteString("attributes #" + strconv.Itoa(g.num) + " = { " + g.grouped + " }\n")
		}
	}
	w.Write(d.resolveGlobal(d.metadataText()))
	d.out = w.Bytes()
}

// renderGlobals renders the global variables, aliases, ifuncs and
// functions, numbers the attribute groups and returns the text with the
// references to groups and metadata resolved.
func (d *decoder) renderGlobals() []byte {
	size := 0
	for _, g := range d.globals {
		size += len(g.body) + 256
	}
	body := bytes.NewBuffer(make([]byte, 0, size)) // see render
	for _, k := range []uint8{gVar, gAlias, gIFunc} {
		first := true
		for _, g := range d.globals {
			if g.kind != k {
				continue
			}
			if first {
				body.WriteString("\n")
				first = false
			}
			if k == gVar {
				d.renderGlobalVar(body, g)
			} else {
				d.renderIndirect(body, g)
			}
		}
	}
	for _, g := range d.globals {
		if g.kind == gFunc {
			body.WriteString("\n")
			d.renderFunction(body, g)
			if g.body != nil {
				g.body = []byte{} // written: its memory can go while the rest is rendered (non-nil: still a definition)
			}
		}
	}
	d.numberGroups()
	return d.resolveGlobal(body.Bytes())
}

// writeHeader writes the module's first lines: its id, source file name,
// data layout, triple and module-level inline asm.
func (d *decoder) writeHeader(w *bytes.Buffer) {
	w.WriteString("; ModuleID = '" + d.File + "'\n")
	if d.sourceFilename != "" {
		w.WriteString("source_filename = " + quoteString(d.sourceFilename) + "\n")
	}
	if d.datalayout != "" {
		w.WriteString("target datalayout = " + quoteString(d.datalayout) + "\n")
	}
	if d.triple != "" {
		w.WriteString("target triple = " + quoteString(d.triple) + "\n")
	}
	if len(d.asm) > 0 {
		w.WriteString("\n")
		for _, l := range d.asm {
			w.WriteString("module asm " + quoteString(l) + "\n")
		}
	}
}

// metadataText renders the module's last lines, with markers: the named
// metadata, then the numbered nodes in their numbers' order.
func (d *decoder) metadataText() []byte {
	var tail bytes.Buffer
	if len(d.namedMD) > 0 {
		tail.WriteString("\n")
		for _, n := range d.namedMD {
			tail.WriteString("!" + mdName(n.name) + " = !{")
			for i, op := range n.ops {
				if i > 0 {
					tail.WriteString(", ")
				}
				tail.WriteString(d.mdRef(op, false))
			}
			tail.WriteString("}\n")
		}
	}
	nodes := make([]*mdEntry, 0, len(d.allMD))
	for _, e := range d.allMD {
		if e.done {
			nodes = append(nodes, e)
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].num < nodes[j].num })
	if len(nodes) > 0 {
		tail.WriteString("\n")
		for _, e := range nodes {
			tail.WriteString("!" + strconv.Itoa(e.num) + " = " + e.text + "\n")
		}
	}
	return tail.Bytes()
}

// comdatOrder returns the used comdats in the order AsmWriter prints them
// (first use by a function, then by a global variable), then the others.
func (d *decoder) comdatOrder() []int {
	seen := make([]bool, len(d.comdats))
	var order []int
	use := func(i uint64) {
		if i > 0 && i-1 < uint64(len(seen)) && !seen[i-1] {
			seen[i-1] = true
			order = append(order, int(i-1))
		}
	}
	for _, g := range d.globals {
		if g.kind == gFunc && len(g.rec) > 12 {
			use(g.rec[12])
		}
	}
	for _, g := range d.globals {
		if g.kind == gVar && len(g.rec) > 11 {
			use(g.rec[11])
		}
	}
	for i := range seen {
		if !seen[i] {
			order = append(order, i)
		}
	}
	return order
}

func (d *decoder) linkage(l uint64) string {
	s, ok := linkages[l]
	if !ok {
		d.failf("unknown linkage %d", l)
	}
	return s
}

// dsoLocal renders the preemption specifier unless the linkage or
// visibility implies it.
func dsoLocal(set bool, linkage, vis uint64) string {
	if !set || isLocalLinkage(linkage) || (vis != 0 && linkage != 7) {
		return ""
	}
	return "dso_local "
}

func (d *decoder) section(i uint64) string {
	if i == 0 {
		return ""
	}
	if i-1 >= uint64(len(d.sections)) {
		d.failf("section %d out of range", i)
	}
	return d.sections[i-1]
}

func (d *decoder) comdatRef(i uint64, self string) string {
	if i == 0 {
		return ""
	}
	if i-1 >= uint64(len(d.comdats)) {
		d.failf("comdat %d out of range", i)
	}
	c := d.comdats[i-1]
	if c == self {
		return "comdat"
	}
	return "comdat($" + quoteName(c) + ")"
}

func alignText(a uint64) string {
	if a == 0 || a > 64 {
		return ""
	}
	return strconv.FormatUint(uint64(1)<<(a-1), 10)
}

func (d *decoder) renderGlobalVar(w *bytes.Buffer, g *global) {
	d.RecPos, d.RecCode = -1, -1
	r := g.rec
	at := func(i int) uint64 {
		if i < len(r) {
			return r[i]
		}
		return 0
	}
	link := r[3]
	w.WriteString(d.globalRef(g) + " = ")
	init := r[2]
	if init == 0 && (link == 0 || link == 5 || link == 6) {
		w.WriteString("external ")
	} else {
		w.WriteString(d.linkage(link))
	}
	vis := at(6)
	if isLocalLinkage(link) {
		vis = 0
	}
	dso := at(13) != 0
	if len(r) <= 13 {
		dso = false
	}
	w.WriteString(dsoLocal(dso, link, vis))
	w.WriteString(pick(visibilities[:], vis, "visibility", d))
	if !isLocalLinkage(link) {
		w.WriteString(pick(dllStorage[:], at(10), "DLL storage class", d))
	}
	w.WriteString(pick(tlsModes[:], at(7), "thread-local mode", d))
	w.WriteString(pick(unnamedAddrs[:], at(8), "unnamed_addr", d))
	if g.as != 0 {
		w.WriteString("addrspace(" + strconv.FormatUint(g.as, 10) + ") ")
	}
	if at(9) != 0 {
		w.WriteString("externally_initialized ")
	}
	if r[1]&1 != 0 {
		w.WriteString("constant ")
	} else {
		w.WriteString("global ")
	}
	w.WriteString(d.tstr(g.valTy))
	if init != 0 {
		w.WriteString(" " + d.constText(init-1, g.valTy))
	}
	if s := d.section(at(5)); s != "" {
		w.WriteString(", section " + quoteString(s))
	}
	if len(r) > 15 {
		if p := d.partition(r[14], r[15]); p != "" {
			w.WriteString(", partition " + quoteString(p))
		}
	}
	if c := d.comdatRef(at(11), g.name); c != "" {
		w.WriteString(", " + c)
	}
	if a := alignText(r[4]); a != "" {
		w.WriteString(", align " + a)
	}
	if cm := at(17); cm != 0 {
		names := []string{1: "tiny", 2: "small", 3: "kernel", 4: "medium", 5: "large"}
		w.WriteString(", code_model " + quoteString(pick(names, cm, "code model", d)))
	}
	if sm := at(16); sm != 0 {
		for i, n := range []string{"no_sanitize_address", "no_sanitize_hwaddress", "sanitize_memtag", "sanitize_address_dyninit"} {
			if sm&(1<<i) != 0 {
				w.WriteString(", " + n)
			}
		}
	}
	for _, a := range g.attach {
		w.WriteString(", !" + mdName(d.mdKind(a.kind)) + " " + d.mdRef(a.md, false))
	}
	if len(r) > 12 {
		w.WriteString(d.fnAttrRef(d.attrList(r[12])))
	}
	w.WriteString("\n")
}

func (d *decoder) partition(off, n uint64) string {
	if off > uint64(len(d.strtab)) || n > uint64(len(d.strtab))-off {
		d.failf("partition name outside the string table")
	}
	return string(d.strtab[off : off+n])
}

func (d *decoder) renderIndirect(w *bytes.Buffer, g *global) {
	d.RecPos, d.RecCode = -1, -1
	r := g.rec
	i := 0
	get := func() (uint64, bool) {
		if i < len(r) {
			i++
			return r[i-1], true
		}
		return 0, false
	}
	aliasee, _ := get()
	link, _ := get()
	w.WriteString(d.globalRef(g) + " = ")
	w.WriteString(d.linkage(link))
	vis, _ := get()
	if isLocalLinkage(link) {
		vis = 0
	}
	var dll, tls, ua, dso uint64
	if g.kind == gAlias {
		dll, _ = get()
		tls, _ = get()
		ua, _ = get()
	}
	dso, _ = get()
	w.WriteString(dsoLocal(dso != 0, link, vis))
	w.WriteString(pick(visibilities[:], vis, "visibility", d))
	if !isLocalLinkage(link) {
		w.WriteString(pick(dllStorage[:], dll, "DLL storage class", d))
	}
	w.WriteString(pick(tlsModes[:], tls, "thread-local mode", d))
	w.WriteString(pick(unnamedAddrs[:], ua, "unnamed_addr", d))
	if g.kind == gAlias {
		w.WriteString("alias ")
	} else {
		w.WriteString("ifunc ")
	}
	w.WriteString(d.tstr(g.valTy) + ", ")
	if aliasee >= uint64(len(d.vals)) {
		d.failf("aliasee %d out of range", aliasee)
	}
	w.WriteString(d.tstr(d.vals[aliasee].ty) + " " + d.constText(aliasee, d.vals[aliasee].ty))
	if i+1 < len(r) {
		if p := d.partition(r[i], r[i+1]); p != "" {
			w.WriteString(", partition " + quoteString(p))
		}
	}
	w.WriteString("\n")
}

var callingConvs = map[uint64]string{
	8: "fastcc", 9: "coldcc", 10: "ghccc", 13: "anyregcc", 14: "preserve_mostcc",
	15: "preserve_allcc", 16: "swiftcc", 17: "cxx_fast_tlscc", 18: "tailcc",
	19: "cfguard_checkcc", 20: "swifttailcc", 64: "x86_stdcallcc", 65: "x86_fastcallcc",
	66: "arm_apcscc", 67: "arm_aapcscc", 68: "arm_aapcs_vfpcc", 69: "msp430_intrcc",
	70: "x86_thiscallcc", 71: "ptx_kernel", 72: "ptx_device", 75: "spir_func",
	76: "spir_kernel", 77: "intel_ocl_bicc", 78: "x86_64_sysvcc", 79: "win64cc",
	80: "x86_vectorcallcc", 83: "x86_intrcc", 84: "avr_intrcc", 85: "avr_signalcc",
	87: "amdgpu_vs", 88: "amdgpu_gs", 89: "amdgpu_ps", 90: "amdgpu_cs",
	91: "amdgpu_kernel", 92: "x86_regcallcc", 93: "amdgpu_hs", 95: "amdgpu_ls",
	96: "amdgpu_es",
}

func ccText(cc uint64) string {
	if cc == 0 {
		return ""
	}
	if s, ok := callingConvs[cc]; ok {
		return s + " "
	}
	return "cc " + strconv.FormatUint(cc, 10) + " "
}

// renderFunction writes a function's definition or declaration.
func (d *decoder) renderFunction(w *bytes.Buffer, g *global) {
	d.RecPos, d.RecCode = -1, -1
	attrs := d.attrList(g.rec[4])
	d.functionPrefix(w, g, attrs)
	d.functionParams(w, g, attrs)
	d.functionSuffix(w, g, attrs)
	w.WriteString(g.fnAttach)
	if g.body == nil {
		w.WriteString("\n")
		return
	}
	w.WriteString(" {\n")
	w.Write(g.body)
	w.WriteString("}\n")
}

// recAt is operand i of record r, 0 past its end.
func recAt(r []uint64, i int) uint64 {
	if i < len(r) {
		return r[i]
	}
	return 0
}

// functionPrefix writes what comes before a function's return type:
// define or declare (with a declaration's attachments), linkage,
// preemption, visibility, DLL storage, calling convention and return
// attributes.
func (d *decoder) functionPrefix(w *bytes.Buffer, g *global, attrs []*attrGroup) {
	r := g.rec
	if g.body != nil {
		w.WriteString("define ")
	} else {
		w.WriteString("declare ")
		for _, a := range g.attach {
			w.WriteString("!" + mdName(d.mdKind(a.kind)) + " " + d.mdRef(a.md, false) + " ")
		}
	}
	link := r[3]
	w.WriteString(d.linkage(link))
	vis := r[7]
	if isLocalLinkage(link) {
		vis = 0
	}
	w.WriteString(dsoLocal(len(r) > 15 && r[15] != 0, link, vis))
	w.WriteString(pick(visibilities[:], vis, "visibility", d))
	if !isLocalLinkage(link) {
		w.WriteString(pick(dllStorage[:], recAt(r, 11), "DLL storage class", d))
	}
	w.WriteString(ccText(r[1]))
	if a := d.attrsAt(attrs, 0); a != "" {
		w.WriteString(a + " ")
	}
}

// functionParams writes a function's return type, name and parameter
// list: types, attributes and a definition's argument names.
func (d *decoder) functionParams(w *bytes.Buffer, g *global, attrs []*attrGroup) {
	ft := d.types[g.valTy]
	w.WriteString(d.tstr(ft.elems[0]) + " " + d.globalRef(g) + "(")
	for i := 1; i < len(ft.elems); i++ {
		if i > 1 {
			w.WriteString(", ")
		}
		w.WriteString(d.tstr(ft.elems[i]))
		if a := d.attrsAt(attrs, uint64(i)); a != "" {
			w.WriteString(" " + a)
		}
		if g.body != nil && i-1 < len(g.argText) {
			w.WriteString(" " + g.argText[i-1])
		}
	}
	if ft.vararg {
		if len(ft.elems) > 1 {
			w.WriteString(", ")
		}
		w.WriteString("...")
	}
	w.WriteString(")")
}

// functionSuffix writes what follows a function's parameters: unnamed_addr,
// address space, function attributes, section, partition, comdat, align,
// gc, and the prefix, prologue and personality constants.
func (d *decoder) functionSuffix(w *bytes.Buffer, g *global, attrs []*attrGroup) {
	r := g.rec
	if ua := recAt(r, 9); ua != 0 {
		w.WriteString(" " + strings.TrimSpace(pick(unnamedAddrs[:], ua, "unnamed_addr", d)))
	}
	if g.as != 0 || d.programAS() != 0 {
		w.WriteString(" addrspace(" + strconv.FormatUint(g.as, 10) + ")")
	}
	w.WriteString(d.fnAttrRef(attrs))
	if s := d.section(r[6]); s != "" {
		w.WriteString(" section " + quoteString(s))
	}
	if len(r) > 18 {
		if p := d.partition(r[17], r[18]); p != "" {
			w.WriteString(" partition " + quoteString(p))
		}
	}
	if c := d.comdatRef(recAt(r, 12), g.name); c != "" {
		w.WriteString(" " + c)
	}
	if a := alignText(r[5]); a != "" {
		w.WriteString(" align " + a)
	}
	if gc := recAt(r, 8); gc != 0 {
		if gc-1 >= uint64(len(d.gcs)) {
			d.failf("gc %d out of range", gc)
		}
		w.WriteString(" gc " + quoteString(d.gcs[gc-1]))
	}
	for _, p := range fnConstOperands {
		if v := recAt(r, p.i); v != 0 {
			if v-1 >= uint64(len(d.vals)) {
				d.failf("%s value out of range", p.name)
			}
			w.WriteString(" " + p.name + " " + d.tstr(d.vals[v-1].ty) + " " + d.constText(v-1, d.vals[v-1].ty))
		}
	}
}

// fnConstOperands are a FUNCTION record's constant operands (value id+1,
// 0 for none), in the order the text prints them.
var fnConstOperands = [...]struct {
	i    int
	name string
}{{13, "prefix"}, {10, "prologue"}, {14, "personality"}}
