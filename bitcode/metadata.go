package bitcode

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode/bitstream"
)

// Metadata entry kinds.
const (
	mdString = iota
	mdNodeKind
	mdValueKind
	mdInline // DIExpression, DIArgList: printed where used
)

// mdEntry is one metadata id's entry. Nodes get an output number when
// read and are rendered at the end of their scope (the module, or the
// function whose metadata block holds them).
type mdEntry struct {
	kind   uint8
	code   uint8
	str    string
	ops    []uint64
	num    int
	recPos int64
	text   string
	done   bool
	gid    int32   // index in decoder.allMD (nodes)
	kids   []int32 // node operands, as allMD indices
}

type dilocKey struct {
	line, col, scope, ia, implicit, group, rank uint64
}

// parseMetadata reads a METADATA_BLOCK (its id read), in the module or a
// function.
func (d *decoder) parseMetadata() {
	b := d.EnterBlock(MetadataBlockID)
	first := len(d.mds)
	var pendingName string
	havePending := false
	for d.NextRecord(b) {
		ops := d.Ops
		switch d.Code {
		case MetadataStrings:
			d.metadataStrings()
		case MetadataStringOld:
			d.mds = append(d.mds, &mdEntry{kind: mdString, str: opsString(ops)})
		case MetadataName:
			pendingName, havePending = opsString(ops), true
		case MetadataNamedNode:
			if !havePending {
				d.failf("NAMED_NODE without a NAME")
			}
			d.namedMD = append(d.namedMD, namedMD{name: pendingName, ops: append([]uint64(nil), ops...)})
			havePending = false
		case MetadataKind:
			d.metadataKind()
		case MetadataIndexOffset, MetadataIndex:
		case MetadataGlobalDeclAttachment:
			if len(ops)%2 == 0 {
				d.failf("bad global attachment record")
			}
			if ops[0] >= uint64(len(d.vals)) || d.vals[ops[0]].kind != vGlobal {
				d.failf("attachment to value %d, not a global", ops[0])
			}
			g := d.globals[d.vals[ops[0]].idx]
			for i := 1; i+1 < len(ops); i += 2 {
				g.attach = append(g.attach, mdAttach{kind: ops[i], md: ops[i+1]})
			}
		case MetadataValue:
			if len(ops) != 2 {
				d.failf("bad VALUE record")
			}
			t := d.tyID(ops[0])
			if k := d.types[t].kind; k == tMetadata || k == tVoid {
				d.failf("metadata value of type %s", d.types[t].str)
			}
			d.mds = append(d.mds, &mdEntry{kind: mdValueKind, ops: []uint64{ops[0], ops[1]}, recPos: d.RecPos})
		case MetadataExpression, MetadataArgList:
			d.mds = append(d.mds, &mdEntry{kind: mdInline, code: uint8(d.Code), ops: append([]uint64(nil), ops...), recPos: d.RecPos})
		case MetadataOldNode, MetadataOldFnNode:
			d.failf("old-style metadata nodes (LLVM 3.5 and earlier) are not supported")
		default:
			if d.Code > MetadataFixedPointType || d.Code == 42 || d.Code == 43 {
				d.failf("unknown record code %d", d.Code)
			}
			e := &mdEntry{kind: mdNodeKind, code: uint8(d.Code), ops: append([]uint64(nil), ops...), num: -1, recPos: d.RecPos, gid: int32(len(d.allMD))}
			d.allMD = append(d.allMD, e)
			d.mds = append(d.mds, e)
		}
	}
	d.Leave()
	d.linkKids(first, len(d.mds))
}

// metadataStrings reads METADATA_STRINGS: [count, offset] and a blob of
// VBR6 lengths followed by the characters.
func (d *decoder) metadataStrings() {
	if len(d.Ops) != 2 {
		d.failf("bad METADATA_STRINGS record")
	}
	n, off := d.Ops[0], d.Ops[1]
	blob := d.Blob
	if off > uint64(len(blob)) || n > uint64(len(blob))*8 {
		d.failf("bad METADATA_STRINGS record")
	}
	lr := &bitstream.Reader{File: d.File, Data: blob[:off], NBits: off * 8, Base: d.Base, RecPos: d.RecPos, RecCode: d.RecCode, Blocks: d.Blocks, Names: d.Names}
	chars := blob[off:]
	for range n {
		l := lr.VBR(6)
		if l > uint64(len(chars)) {
			d.failf("metadata string runs past its blob")
		}
		d.mds = append(d.mds, &mdEntry{kind: mdString, str: string(chars[:l])})
		chars = chars[l:]
	}
}

func (d *decoder) metadataKind() {
	if len(d.Ops) < 1 {
		d.failf("bad KIND record")
	}
	d.mdKinds[d.Ops[0]] = opsString(d.Ops[1:])
}

// parseMetadataKinds reads METADATA_KIND_BLOCK (its id read).
func (d *decoder) parseMetadataKinds() {
	b := d.EnterBlock(MetadataKindBlockID)
	for d.NextRecord(b) {
		if d.Code != MetadataKind {
			d.failf("unknown record code %d", d.Code)
		}
		d.metadataKind()
	}
	d.Leave()
}

func (d *decoder) mdKind(k uint64) string {
	s, ok := d.mdKinds[k]
	if !ok {
		d.failf("unknown metadata kind %d", k)
	}
	return s
}

func (d *decoder) md(id uint64) *mdEntry {
	if id >= uint64(len(d.mds)) {
		d.failf("metadata %d out of range", id)
	}
	return d.mds[id]
}

// mdRef renders a reference to metadata id (absolute): !N, !"string",
// a value ("i32 1"), or an inline DIExpression / DIArgList.
func (d *decoder) mdRef(id uint64, _ bool) string {
	e := d.md(id)
	switch e.kind {
	case mdString:
		return "!" + quoteString(e.str)
	case mdNodeKind:
		return mdMarker(e.gid)
	case mdValueKind:
		return d.tstr(int32(e.ops[0])) + " " + d.constText(e.ops[1], int32(e.ops[0]))
	}
	return d.inlineMD(e)
}

// mdOpRef renders an operand encoded as id+1 (0: null).
func (d *decoder) mdOpRef(op uint64) string {
	if op == 0 {
		return "null"
	}
	return d.mdRef(op-1, false)
}

func (d *decoder) inlineMD(e *mdEntry) string {
	if e.done {
		return e.text
	}
	save := d.RecPos
	d.RecPos = e.recPos
	var sb strings.Builder
	switch e.code {
	case MetadataExpression:
		if len(e.ops) < 1 {
			d.failf("bad DIExpression")
		}
		if e.ops[0]>>1 != 3 {
			d.failf("DIExpression version %d is not supported", e.ops[0]>>1)
		}
		sb.WriteString("!DIExpression(")
		for i, x := range e.ops[1:] {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(strconv.FormatUint(x, 10))
		}
		sb.WriteString(")")
	case MetadataArgList:
		sb.WriteString("!DIArgList(")
		for i, x := range e.ops {
			if i > 0 {
				sb.WriteString(", ")
			}
			if x < uint64(len(d.mds)) && d.mds[x].kind != mdValueKind {
				d.failf("DIArgList operand is not a value")
			}
			sb.WriteString(d.mdRef(x, false))
		}
		sb.WriteString(")")
	}
	d.RecPos = save
	e.text, e.done = sb.String(), true
	return e.text
}

// renderMetadata renders the nodes among entries [from, to) (their
// references are markers until every number is known).
func (d *decoder) renderMetadata(from, to int) {
	for _, e := range d.mds[from:to] {
		if e.kind != mdNodeKind || e.done {
			continue
		}
		d.RecPos, d.RecCode = e.recPos, int64(e.code)
		e.text, e.done = d.nodeText(e), true
		d.charge(len(e.text))
	}
}

// fields builds a specialized node's field list, omitting defaults.
type fields struct {
	d  *decoder
	sb strings.Builder
	n  int
}

func (f *fields) raw(name, v string) {
	if f.n > 0 {
		f.sb.WriteString(", ")
	}
	f.n++
	f.sb.WriteString(name + ": " + v)
}

func (f *fields) md(name string, op uint64) { // op is id+1
	if op != 0 {
		f.raw(name, f.d.mdRef(op-1, true))
	}
}

// req renders a required metadata field, null included.
func (f *fields) req(name string, op uint64) {
	if op == 0 {
		f.raw(name, "null")
		return
	}
	f.md(name, op)
}

func (f *fields) str(name string, op uint64) {
	if op == 0 {
		return
	}
	e := f.d.md(op - 1)
	if e.kind != mdString {
		f.d.failf("field %s is not a string", name)
	}
	f.raw(name, quoteString(e.str))
}

func (f *fields) uint(name string, v uint64) {
	if v != 0 {
		f.raw(name, strconv.FormatUint(v, 10))
	}
}

func (f *fields) sint(name string, v uint64) {
	if v != 0 {
		f.raw(name, strconv.FormatInt(int64(v), 10))
	}
}

func (f *fields) boolean(name string, v uint64) {
	if v != 0 {
		f.raw(name, "true")
	}
}

// intOrMD renders a field that holds a constant integer or a node.
func (f *fields) intOrMD(name string, op uint64) {
	if op == 0 {
		return
	}
	e := f.d.md(op - 1)
	if e.kind == mdValueKind {
		if v, ok := f.d.intValue(e.ops[1]); ok {
			f.raw(name, strconv.FormatInt(v, 10))
			return
		}
	}
	f.raw(name, f.d.mdRef(op-1, true))
}

var emissionKinds = []string{"NoDebug", "FullDebug", "LineTablesOnly", "DebugDirectivesOnly"}
var nameTableKinds = []string{"Default", "GNU", "None", "Apple"}
var checksumKinds = []string{1: "CSK_MD5", 2: "CSK_SHA1", 3: "CSK_SHA256"}

// node is the metadata record nodeText renders.
type node struct {
	d        *decoder
	r        []uint64 // its operands
	f        *fields
	distinct bool
	code     uint64
}

// need checks the number of operands.
func (n *node) need(lo, hi int) {
	if len(n.r) < lo || len(n.r) > hi {
		n.d.failf("bad metadata record (%d operands)", len(n.r))
	}
}

// at is operand i, 0 past the last.
func (n *node) at(i int) uint64 {
	if i < len(n.r) {
		return n.r[i]
	}
	return 0
}

// nodeText renders a metadata node's record as LLVM prints the node: each
// record kind's fields by its own method (nodeRecords).
func (d *decoder) nodeText(e *mdEntry) string {
	n := &node{d: d, r: e.ops, f: &fields{d: d}, distinct: len(e.ops) > 0 && e.ops[0]&1 != 0, code: uint64(e.code)}
	if int(e.code) >= len(nodeRecords) || nodeRecords[e.code] == nil {
		d.failf("unknown record code %d", e.code)
	}
	name, text := nodeRecords[e.code](n)
	if text != "" {
		return text
	}
	s := "!" + name + "(" + n.f.sb.String() + ")"
	if n.distinct {
		return "distinct " + s
	}
	return s
}

// nodeRecords renders each metadata record kind of its code, by code.
var nodeRecords = [...]func(*node) (name, text string){
	MetadataNode:             (*node).tuple,
	MetadataDistinctNode:     (*node).tuple,
	MetadataLocation:         (*node).location,
	MetadataGenericDebug:     (*node).genericDebug,
	MetadataSubrange:         (*node).subrange,
	MetadataGenericSubrange:  (*node).genericSubrange,
	MetadataEnumerator:       (*node).enumerator,
	MetadataBasicType:        (*node).basicType,
	MetadataStringType:       (*node).stringType,
	MetadataDerivedType:      (*node).derivedType,
	MetadataCompositeType:    (*node).compositeType,
	MetadataSubroutineType:   (*node).subroutineType,
	MetadataFile:             (*node).file,
	MetadataCompileUnit:      (*node).compileUnit,
	MetadataSubprogram:       (*node).subprogram,
	MetadataLexicalBlock:     (*node).lexicalBlock,
	MetadataLexicalBlockFile: (*node).lexicalBlockFile,
	MetadataCommonBlock:      (*node).commonBlock,
	MetadataNamespace:        (*node).namespace,
	MetadataMacro:            (*node).macro,
	MetadataMacroFile:        (*node).macroFile,
	MetadataTemplateType:     (*node).templateType,
	MetadataTemplateValue:    (*node).templateValue,
	MetadataGlobalVar:        (*node).globalVar,
	MetadataLocalVar:         (*node).localVar,
	MetadataLabel:            (*node).label,
	MetadataGlobalVarExpr:    (*node).globalVarExpr,
	MetadataObjCProperty:     (*node).objCProperty,
	MetadataImportedEntity:   (*node).importedEntity,
	MetadataModule:           (*node).module,
	MetadataAssignID:         (*node).assignID,
}

// tuple reads a MetadataNode, MetadataDistinctNode record: the node's name and fields, or its whole text.
func (n *node) tuple() (string, string) {
	d := n.d
	r := n.r
	var sb strings.Builder
	if n.code == MetadataDistinctNode {
		sb.WriteString("distinct ")
	}
	sb.WriteString("!{")
	for i, op := range r {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(d.mdOpRef(op))
	}
	sb.WriteString("}")
	return "", sb.String()
}

// location reads a MetadataLocation record: the node's name and fields, or its whole text.
func (n *node) location() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(5, 8)
	name = "DILocation"
	f.raw("line", strconv.FormatUint(r[1], 10))
	f.uint("column", r[2])
	f.raw("scope", d.mdRef(r[3], true))
	f.md("inlinedAt", r[4])
	f.boolean("isImplicitCode", n.at(5))
	f.uint("atomGroup", n.at(6))
	f.uint("atomRank", n.at(7))
	return name, ""
}

// genericDebug reads a MetadataGenericDebug record: the node's name and fields, or its whole text.
func (n *node) genericDebug() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(4, 1<<30)
	name = "GenericDINode"
	f.raw("tag", strconv.FormatUint(r[1], 10))
	f.str("header", r[3])
	if len(r) > 4 {
		var sb strings.Builder
		sb.WriteString("{")
		for i, op := range r[4:] {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(d.mdOpRef(op))
		}
		sb.WriteString("}")
		f.raw("operands", sb.String())
	}
	return name, ""
}

// subrange reads a MetadataSubrange record: the node's name and fields, or its whole text.
func (n *node) subrange() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(3, 5)
	name = "DISubrange"
	switch r[0] >> 1 {
	case 0:
		f.raw("count", strconv.FormatInt(int64(decodeSigned(r[1])), 10))
		f.raw("lowerBound", strconv.FormatInt(int64(decodeSigned(r[2])), 10))
	case 1:
		f.intOrMD("count", r[1])
		f.raw("lowerBound", strconv.FormatInt(int64(decodeSigned(r[2])), 10))
	case 2:
		n.need(5, 5)
		f.intOrMD("count", r[1])
		f.intOrMD("lowerBound", r[2])
		f.intOrMD("upperBound", r[3])
		f.intOrMD("stride", r[4])
	default:
		d.failf("unsupported DISubrange version %d", r[0]>>1)
	}
	return name, ""
}

// genericSubrange reads a MetadataGenericSubrange record: the node's name and fields, or its whole text.
func (n *node) genericSubrange() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 5)
	name = "DIGenericSubrange"
	f.intOrMD("count", r[1])
	f.intOrMD("lowerBound", r[2])
	f.intOrMD("upperBound", r[3])
	f.intOrMD("stride", r[4])
	return name, ""
}

// enumerator reads a MetadataEnumerator record: the node's name and fields, or its whole text.
func (n *node) enumerator() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(3, 1<<20)
	name = "DIEnumerator"
	f.str("name", r[2])
	unsigned := r[0]&2 != 0
	if r[0]&4 != 0 {
		f.raw("value", wideIntTextSigned(r[3:], r[1], !unsigned))
	} else if unsigned {
		f.raw("value", strconv.FormatUint(decodeSigned(r[1]), 10))
	} else {
		f.raw("value", strconv.FormatInt(int64(decodeSigned(r[1])), 10))
	}
	if unsigned {
		f.raw("isUnsigned", "true")
	}
	return name, ""
}

// basicType reads a MetadataBasicType record: the node's name and fields, or its whole text.
func (n *node) basicType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(6, 9)
	name = "DIBasicType"
	f.uint("tag", r[1])
	f.str("name", r[2])
	if r[0]&2 != 0 {
		f.intOrMD("size", r[3])
	} else {
		f.uint("size", r[3])
	}
	f.uint("align", r[4])
	f.uint("encoding", r[5])
	f.uint("num_extra_inhabitants", n.at(7))
	f.uint("dataSize", n.at(8))
	f.uint("flags", n.at(6))
	return name, ""
}

// stringType reads a MetadataStringType record: the node's name and fields, or its whole text.
func (n *node) stringType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(8, 9)
	name = "DIStringType"
	f.uint("tag", r[1])
	f.str("name", r[2])
	f.md("stringLength", r[3])
	f.md("stringLengthExpression", r[4])
	o := 5
	if len(r) == 9 {
		f.md("stringLocationExpression", r[5])
		o = 6
	}
	// LLVM 22 may hold the size as a node (flag bit 1), as DIBasicType does.
	if r[0]&2 != 0 {
		f.intOrMD("size", r[o])
	} else {
		f.uint("size", r[o])
	}
	f.uint("align", r[o+1])
	f.uint("encoding", r[o+2])
	return name, ""
}

// derivedType reads a MetadataDerivedType record: the node's name and fields, or its whole text.
func (n *node) derivedType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(12, 16)
	name = "DIDerivedType"
	f.uint("tag", r[1])
	f.str("name", r[2])
	f.md("file", r[3])
	f.uint("line", r[4])
	f.md("scope", r[5])
	f.req("baseType", r[6])
	if r[0]&2 != 0 { // size and offset are metadata
		f.intOrMD("size", r[7])
		f.intOrMD("offset", r[9])
	} else {
		f.uint("size", r[7])
		f.uint("offset", r[9])
	}
	f.uint("align", r[8])
	f.uint("flags", r[10])
	f.md("extraData", r[11])
	if n.at(12) != 0 {
		f.raw("dwarfAddressSpace", strconv.FormatUint(n.at(12)-1, 10))
	}
	f.md("annotations", n.at(13))
	if p := n.at(14); p != 0 {
		f.raw("ptrAuthKey", strconv.FormatUint(p&15, 10))
		if p&16 != 0 {
			f.raw("ptrAuthIsAddressDiscriminated", "true")
		}
		f.raw("ptrAuthExtraDiscriminator", strconv.FormatUint((p>>5)&0xffff, 10))
		if p&(1<<21) != 0 {
			f.raw("ptrAuthIsaPointer", "true")
		}
		if p&(1<<22) != 0 {
			f.raw("ptrAuthAuthenticatesNullValues", "true")
		}
	}
	return name, ""
}

// compositeType reads a MetadataCompositeType record: the node's name and fields, or its whole text.
func (n *node) compositeType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(16, 26)
	name = "DICompositeType"
	f.uint("tag", r[1])
	f.str("name", r[2])
	f.md("file", r[3])
	f.uint("line", r[4])
	f.md("scope", r[5])
	f.md("baseType", r[6])
	if r[0]&4 != 0 { // size and offset are metadata
		f.intOrMD("size", r[7])
		f.intOrMD("offset", r[9])
	} else {
		f.uint("size", r[7])
		f.uint("offset", r[9])
	}
	f.uint("align", r[8])
	f.uint("flags", r[10])
	f.md("elements", r[11])
	f.uint("runtimeLang", r[12])
	f.md("vtableHolder", r[13])
	f.md("templateParams", r[14])
	f.str("identifier", r[15])
	f.md("discriminator", n.at(16))
	f.intOrMD("dataLocation", n.at(17))
	f.intOrMD("associated", n.at(18))
	f.intOrMD("allocated", n.at(19))
	f.intOrMD("rank", n.at(20))
	f.md("annotations", n.at(21))
	f.uint("num_extra_inhabitants", n.at(22))
	f.md("specification", n.at(23))
	if k := n.at(24); len(r) > 24 && k != 0xFFFFFFFF {
		f.uint("enumKind", k)
	}
	f.intOrMD("bitStride", n.at(25))
	return name, ""
}

// subroutineType reads a MetadataSubroutineType record: the node's name and fields, or its whole text.
func (n *node) subroutineType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(3, 4)
	name = "DISubroutineType"
	f.uint("flags", r[1])
	f.uint("cc", n.at(3))
	if r[2] == 0 {
		f.raw("types", "null")
	} else {
		f.md("types", r[2])
	}
	return name, ""
}

// file reads a MetadataFile record: the node's name and fields, or its whole text.
func (n *node) file() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(3, 6)
	name = "DIFile"
	f.str("filename", r[1])
	if r[1] == 0 {
		f.raw("filename", `""`)
	}
	f.str("directory", r[2])
	if r[2] == 0 {
		f.raw("directory", `""`)
	}
	if len(r) > 4 && r[3] != 0 && r[4] != 0 {
		f.raw("checksumkind", pick(checksumKinds, r[3], "checksum kind", d))
		f.str("checksum", r[4])
	}
	f.str("source", n.at(5))
	return name, ""
}

// compileUnit reads a MetadataCompileUnit record: the node's name and fields, or its whole text.
func (n *node) compileUnit() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(14, 23)
	name = "DICompileUnit"
	n.distinct = true
	f.uint("language", r[1])
	f.md("file", r[2])
	f.str("producer", r[3])
	f.boolean("isOptimized", r[4])
	f.str("flags", r[5])
	f.uint("runtimeVersion", r[6])
	f.str("splitDebugFilename", r[7])
	f.raw("emissionKind", pick(emissionKinds, r[8], "emission kind", d))
	f.md("enums", r[9])
	f.md("retainedTypes", r[10])
	f.md("globals", r[12])
	f.md("imports", r[13])
	f.md("macros", n.at(15))
	f.uint("dwoId", n.at(14))
	if len(r) > 16 && r[16] == 0 {
		f.raw("splitDebugInlining", "false")
	}
	f.boolean("debugInfoForProfiling", n.at(17))
	if k := n.at(18); k != 0 {
		f.raw("nameTableKind", pick(nameTableKinds, k, "name table kind", d))
	}
	f.boolean("rangesBaseAddress", n.at(19))
	f.str("sysroot", n.at(20))
	f.str("sdk", n.at(21))
	return name, ""
}

// subprogram reads a MetadataSubprogram record: the node's name and fields, or its whole text.
func (n *node) subprogram() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(18, 22)
	name = "DISubprogram"
	if r[0]&4 == 0 || r[0]&2 == 0 {
		d.failf("DISubprogram records before LLVM 8 are not supported")
	}
	spFlags := r[9]
	flags := r[11]
	if flags&(1<<21) != 0 { // old DIFlagMainSubprogram
		flags &^= 1 << 21
		spFlags |= 1 << 8
	}
	n.distinct = r[0]&1 != 0 || spFlags&8 != 0
	f.md("scope", r[1])
	f.str("name", r[2])
	f.str("linkageName", r[3])
	f.md("file", r[4])
	f.uint("line", r[5])
	f.md("type", r[6])
	f.uint("scopeLine", r[7])
	f.md("containingType", r[8])
	f.uint("virtualIndex", r[10])
	f.sint("thisAdjustment", n.at(16))
	f.uint("flags", flags)
	f.raw("spFlags", strconv.FormatUint(spFlags, 10))
	f.md("unit", r[12])
	f.md("templateParams", r[13])
	f.md("declaration", r[14])
	f.md("retainedNodes", r[15])
	f.md("thrownTypes", n.at(17))
	f.md("annotations", n.at(18))
	f.str("targetFuncName", n.at(19))
	f.boolean("keyInstructions", n.at(20))
	return name, ""
}

// lexicalBlock reads a MetadataLexicalBlock record: the node's name and fields, or its whole text.
func (n *node) lexicalBlock() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 5)
	name = "DILexicalBlock"
	f.req("scope", r[1])
	f.md("file", r[2])
	f.uint("line", r[3])
	f.uint("column", r[4])
	return name, ""
}

// lexicalBlockFile reads a MetadataLexicalBlockFile record: the node's name and fields, or its whole text.
func (n *node) lexicalBlockFile() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(4, 4)
	name = "DILexicalBlockFile"
	f.req("scope", r[1])
	f.md("file", r[2])
	f.raw("discriminator", strconv.FormatUint(r[3], 10))
	return name, ""
}

// commonBlock reads a MetadataCommonBlock record: the node's name and fields, or its whole text.
func (n *node) commonBlock() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(6, 6)
	name = "DICommonBlock"
	f.req("scope", r[1])
	f.md("declaration", r[2])
	f.str("name", r[3])
	f.md("file", r[4])
	f.uint("line", r[5])
	return name, ""
}

// namespace reads a MetadataNamespace record: the node's name and fields, or its whole text.
func (n *node) namespace() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(3, 5)
	name = "DINamespace"
	f.req("scope", r[1])
	if len(r) == 5 {
		f.str("name", r[3])
	} else {
		f.str("name", r[2])
	}
	if r[0]&2 != 0 {
		f.raw("exportSymbols", "true")
	}
	return name, ""
}

// macro reads a MetadataMacro record: the node's name and fields, or its whole text.
func (n *node) macro() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 5)
	name = "DIMacro"
	f.raw("type", strconv.FormatUint(r[1], 10))
	f.uint("line", r[2])
	f.str("name", r[3])
	f.str("value", r[4])
	return name, ""
}

// macroFile reads a MetadataMacroFile record: the node's name and fields, or its whole text.
func (n *node) macroFile() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 5)
	name = "DIMacroFile"
	f.raw("type", strconv.FormatUint(r[1], 10))
	f.uint("line", r[2])
	f.md("file", r[3])
	f.md("nodes", r[4])
	return name, ""
}

// templateType reads a MetadataTemplateType record: the node's name and fields, or its whole text.
func (n *node) templateType() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(3, 4)
	name = "DITemplateTypeParameter"
	f.str("name", r[1])
	f.req("type", r[2])
	f.boolean("defaulted", n.at(3))
	return name, ""
}

// templateValue reads a MetadataTemplateValue record: the node's name and fields, or its whole text.
func (n *node) templateValue() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 6)
	name = "DITemplateValueParameter"
	if r[1] != 0x30 {
		f.uint("tag", r[1])
	}
	f.str("name", r[2])
	f.md("type", r[3])
	if len(r) == 6 {
		f.boolean("defaulted", r[4])
		f.md("value", r[5])
	} else {
		f.md("value", r[4])
	}
	return name, ""
}

// globalVar reads a MetadataGlobalVar record: the node's name and fields, or its whole text.
func (n *node) globalVar() (string, string) {
	d := n.d
	r := n.r
	f := n.f
	name := ""
	n.need(11, 13)
	name = "DIGlobalVariable"
	if r[0]>>1 != 2 {
		d.failf("DIGlobalVariable version %d is not supported", r[0]>>1)
	}
	f.str("name", r[2])
	f.str("linkageName", r[3])
	f.md("scope", r[1])
	f.md("file", r[4])
	f.uint("line", r[5])
	f.md("type", r[6])
	f.raw("isLocal", strconv.FormatBool(r[7] != 0))
	f.raw("isDefinition", strconv.FormatBool(r[8] != 0))
	f.md("declaration", r[9])
	f.md("templateParams", r[10])
	f.uint("align", n.at(11))
	f.md("annotations", n.at(12))
	return name, ""
}

// localVar reads a MetadataLocalVar record: the node's name and fields, or its whole text.
func (n *node) localVar() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(8, 10)
	name = "DILocalVariable"
	hasAlign := r[0]&2 != 0
	o := 0
	if !hasAlign && len(r) > 8 {
		o = 1
	}
	f.str("name", r[2+o])
	f.uint("arg", r[6+o])
	f.req("scope", r[1+o])
	f.md("file", r[3+o])
	f.uint("line", r[4+o])
	f.md("type", r[5+o])
	f.uint("flags", r[7+o])
	if hasAlign {
		f.uint("align", n.at(8))
		f.md("annotations", n.at(9))
	}
	return name, ""
}

// label reads a MetadataLabel record: the node's name and fields, or its whole text.
func (n *node) label() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 8)
	name = "DILabel"
	f.req("scope", r[1])
	f.str("name", r[2])
	f.md("file", r[3])
	f.uint("line", r[4])
	f.uint("column", n.at(5))
	if r[0]&2 != 0 {
		f.raw("isArtificial", "true")
	}
	if k := n.at(6); len(r) > 6 && uint32(k) != 0xFFFFFFFF {
		f.raw("coroSuspendIdx", strconv.FormatUint(k, 10))
	}
	return name, ""
}

// globalVarExpr reads a MetadataGlobalVarExpr record: the node's name and fields, or its whole text.
func (n *node) globalVarExpr() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(3, 3)
	name = "DIGlobalVariableExpression"
	f.req("var", r[1])
	f.req("expr", r[2])
	return name, ""
}

// objCProperty reads a MetadataObjCProperty record: the node's name and fields, or its whole text.
func (n *node) objCProperty() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(8, 8)
	name = "DIObjCProperty"
	f.str("name", r[1])
	f.md("file", r[2])
	f.uint("line", r[3])
	// LLVM 22 writes the setter before the getter, older ones the getter first.
	getter, setter := r[4], r[5]
	if n.d.major() >= 22 {
		getter, setter = setter, getter
	}
	f.str("setter", setter)
	f.str("getter", getter)
	f.uint("attributes", r[6])
	f.md("type", r[7])
	return name, ""
}

// importedEntity reads a MetadataImportedEntity record: the node's name and fields, or its whole text.
func (n *node) importedEntity() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(6, 8)
	name = "DIImportedEntity"
	f.raw("tag", strconv.FormatUint(r[1], 10))
	f.req("scope", r[2])
	f.md("entity", r[3])
	f.md("file", n.at(6))
	f.uint("line", r[4])
	f.str("name", r[5])
	f.md("elements", n.at(7))
	return name, ""
}

// module reads a MetadataModule record: the node's name and fields, or its whole text.
func (n *node) module() (string, string) {
	r := n.r
	f := n.f
	name := ""
	n.need(5, 9)
	name = "DIModule"
	o := 1
	if len(r) >= 8 {
		f.md("file", r[1])
		o = 2
	}
	f.req("scope", r[o])
	f.str("name", r[o+1])
	f.str("configMacros", r[o+2])
	f.str("includePath", r[o+3])
	f.str("apinotes", n.at(o+4))
	f.uint("line", n.at(7))
	f.boolean("isDecl", n.at(8))
	return name, ""
}

// assignID reads a MetadataAssignID record: the node's name and fields, or its whole text.
func (n *node) assignID() (string, string) {
	n.need(1, 1)
	return "", "distinct !DIAssignID()"
}

func wideIntTextSigned(words []uint64, width uint64, signed bool) string {
	if width == 0 || width > 1<<16 {
		return "0"
	}
	s := wideIntText(words, width)
	if !signed && strings.HasPrefix(s, "-") {
		// Reinterpret as unsigned.
		return wideUnsigned(words, width)
	}
	return s
}
