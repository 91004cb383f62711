package llvmir

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
)

// Specialized metadata nodes (!DIxxx(…)): each field is read by name,
// then the record is laid out as LLVM's writer lays it out (the reader of
// every supported LLVM accepts that layout).

// diField is one "name: value" of a specialized node.
type diField struct {
	at   int
	md   *bcMD  // a metadata value (null included: isMD with md nil)
	isMD bool   // the value is metadata
	text string // an integer, a keyword, or flags joined by '|'
	str  *string
	list []*bcMD // GenericDINode's operands (nil for null)
}

type diNode struct {
	m      *bcMeta
	name   string
	fields map[string]*diField
	at     int
}

// special parses "!DIxxx(…)" into x.
func (m *bcMeta) special(x *bcMD, f *bcFunc) {
	a, p := m.a, m.a.p
	tok := p.tok
	n := &diNode{m: m, name: p.name(tok), fields: map[string]*diField{}, at: tok.start}
	x.off = tok.start
	if n.name == "DIExpression" {
		m.expression(x, tok)
		return
	}
	p.next()
	p.expectPunct('(')
	for !p.isPunct(')') {
		fd := &diField{at: p.tok.start}
		name := m.fieldName()
		m.fieldValue(n, fd, f)
		n.fields[name] = fd
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
	n.build(x, a)
}

// fieldName parses the "name:" that starts a field of a specialized node.
func (m *bcMeta) fieldName() string {
	p := m.a.p
	var name string
	switch p.tok.kind {
	case tLabel: // "name:" lexes as one token
		name = p.text(p.tok)
		name = name[:len(name)-1]
		p.next()
	case tIdent:
		name = p.text(p.tok)
		p.next()
		p.expectPunct(':')
	default:
		p.failTok("expected a field name")
	}
	return name
}

// fieldValue parses the value of a field of n into fd: metadata, a
// string, an integer, keywords or flags, or GenericDINode's operands.
func (m *bcMeta) fieldValue(n *diNode, fd *diField, f *bcFunc) {
	p := m.a.p
	switch p.tok.kind {
	case tMetaID, tMetaStr, tExcl, tMetaVar:
		fd.isMD = true
		fd.md = m.parse(f)
	case tString:
		s := p.stringVal(p.tok)
		fd.str = &s
		p.next()
	case tInt:
		fd.text = p.text(p.tok)
		p.next()
	case tIdent, tLocal, tLocalN:
		if p.isIdent("null") {
			fd.isMD = true
			p.next()
			break
		}
		if p.tok.kind != tIdent || isTypeKeyword(p.bytes(p.tok)) {
			// A value: "extraData: i64 256", "value: ptr @g".
			fd.isMD = true
			fd.md = m.parse(f)
			break
		}
		fd.text = m.fieldWords()
	case tPunct:
		if n.name == "GenericDINode" && p.isPunct('{') {
			fd.list = m.genericOperands(f)
			break
		}
		p.failTok("expected a field value")
	default:
		p.failTok("expected a field value")
	}
}

// fieldWords parses a keyword, or flags joined by '|', as one text.
func (m *bcMeta) fieldWords() string {
	p := m.a.p
	var parts []string
	for {
		if p.tok.kind != tIdent && p.tok.kind != tInt {
			p.failTok("expected a value")
		}
		parts = append(parts, p.text(p.tok))
		p.next()
		if !p.acceptPunct('|') {
			break
		}
	}
	return strings.Join(parts, "|")
}

// genericOperands parses GenericDINode's "operands: {!1, null, …}" (nil
// for null).
func (m *bcMeta) genericOperands(f *bcFunc) []*bcMD {
	p := m.a.p
	var list []*bcMD
	p.next()
	for !p.isPunct('}') {
		if p.acceptIdent("null") {
			list = append(list, nil)
		} else {
			list = append(list, m.parse(f))
		}
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct('}')
	return list
}

// expression parses the operations of !DIExpression(…) (the parser is
// just after its '(').
func (m *bcMeta) expression(x *bcMD, tok token) {
	p := m.a.p
	p.next()
	p.expectPunct('(')
	x.code = bitcode.MetadataExpression
	x.fields = []bcMDF{{v: 3 << 1}}
	for !p.isPunct(')') {
		t := p.tok
		var v uint64
		switch t.kind {
		case tInt:
			u, ok := bcParseUint(p.text(t))
			if !ok {
				iv, err := strconv.ParseInt(p.text(t), 10, 64)
				if err != nil {
					p.fail(t.start, "bad DIExpression operand")
				}
				u = uint64(iv)
			}
			v = u
		case tIdent:
			w := p.text(t)
			var ok bool
			if v, ok = dwOps[w]; !ok {
				if v, ok = dwATE[w]; !ok {
					m.a.unsupported(t.start, "the DIExpression operation "+w)
				}
			}
		default:
			p.failTok("expected a DIExpression operation")
		}
		p.next()
		x.fields = append(x.fields, bcMDF{v: v})
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
}

func (n *diNode) get(name string) *diField { return n.fields[name] }

// md returns a metadata field as id+1 (0 for absent or null). A string
// value is an MDString.
func (n *diNode) md(name string) bcMDF {
	fd := n.fields[name]
	if fd == nil {
		return bcMDF{isMD: true, ref1: true}
	}
	if fd.str != nil {
		return bcMDF{isMD: true, ref1: true, ref: n.m.str(*fd.str)}
	}
	if !fd.isMD {
		if fd.text != "" {
			// An integer where metadata may stand (count: 5): a ConstantInt
			// i64 as metadata.
			v, ok := new(big.Int).SetString(fd.text, 10)
			if !ok {
				n.m.a.p.fail(fd.at, "expected metadata or an integer")
			}
			c := n.m.a.consts.intConst(typeI64, v)
			return bcMDF{isMD: true, ref1: true, ref: n.m.value(c, typeI64)}
		}
		n.m.a.p.fail(fd.at, "expected metadata")
	}
	return bcMDF{isMD: true, ref1: true, ref: fd.md}
}

// mdID returns a required metadata field as its id (not +1).
func (n *diNode) mdID(name string) bcMDF {
	f := n.md(name)
	if f.ref == nil {
		n.m.a.p.fail(n.at, "missing required field '"+name+"'")
	}
	f.ref1 = false
	return f
}

// num returns an integer or keyword field; def when absent.
func (n *diNode) num(name string, def uint64, table map[string]uint64) bcMDF {
	fd := n.fields[name]
	if fd == nil {
		return bcMDF{v: def}
	}
	var v uint64
	for _, part := range strings.Split(fd.text, "|") {
		if part == "" {
			n.m.a.p.fail(fd.at, "expected a value for '"+name+"'")
		}
		if u, ok := bcParseUint(part); ok {
			v |= u
			continue
		}
		if i, err := strconv.ParseInt(part, 10, 64); err == nil {
			v |= uint64(i)
			continue
		}
		switch part {
		case "true":
			v |= 1
			continue
		case "false":
			continue
		}
		u, ok := table[part]
		if !ok {
			u, ok = diKeywords[part]
		}
		if !ok {
			n.m.a.unsupported(fd.at, "the value "+part)
		}
		v |= u
	}
	return bcMDF{v: v}
}

func (n *diNode) boolean(name string) uint64 { return n.num(name, 0, nil).v }

func lit0(v uint64) bcMDF { return bcMDF{v: v} }

// build lays out the record of a specialized node: its code, and its
// fields from the node kind's method.
func (n *diNode) build(x *bcMD, a *bcw) {
	d := uint64(0)
	if x.distinct {
		d = 1
	}
	var code uint64
	var fs []bcMDF
	switch n.name {
	case "DILocation":
		code, fs = bitcode.MetadataLocation, n.location(d)
	case "DIFile":
		code, fs = bitcode.MetadataFile, n.file(d)
	case "DIBasicType":
		code, fs = bitcode.MetadataBasicType, n.basicType(d, a.gen)
	case "DIDerivedType":
		code, fs = bitcode.MetadataDerivedType, n.derivedType(d, a.gen)
	case "DICompositeType":
		code, fs = bitcode.MetadataCompositeType, n.compositeType(d)
	case "DISubroutineType":
		code, fs = bitcode.MetadataSubroutineType, n.subroutineType(d)
	case "DICompileUnit":
		code, fs = bitcode.MetadataCompileUnit, n.compileUnit()
	case "DISubprogram":
		code, fs = bitcode.MetadataSubprogram, n.subprogram(x, d, a.gen)
	case "DILexicalBlock":
		code, fs = bitcode.MetadataLexicalBlock, n.lexicalBlock(d)
	case "DILexicalBlockFile":
		code, fs = bitcode.MetadataLexicalBlockFile, n.lexicalBlockFile(d)
	case "DINamespace":
		code, fs = bitcode.MetadataNamespace, n.namespace(d)
	case "DILocalVariable":
		code, fs = bitcode.MetadataLocalVar, n.localVariable(d)
	case "DIGlobalVariable":
		code, fs = bitcode.MetadataGlobalVar, n.globalVariable(d)
	case "DIGlobalVariableExpression":
		code, fs = bitcode.MetadataGlobalVarExpr, n.globalVariableExpr(d)
	case "DISubrange":
		code, fs = bitcode.MetadataSubrange, n.subrange(d)
	case "DIEnumerator":
		code, fs = bitcode.MetadataEnumerator, n.enumerator(d)
	case "DITemplateTypeParameter":
		code, fs = bitcode.MetadataTemplateType, n.templateTypeParam(d)
	case "DITemplateValueParameter":
		code, fs = bitcode.MetadataTemplateValue, n.templateValueParam(d)
	case "DILabel":
		code, fs = bitcode.MetadataLabel, n.label(d, a.gen)
	case "DIImportedEntity":
		code, fs = bitcode.MetadataImportedEntity, n.importedEntity(d)
	case "DIAssignID":
		code, fs = bitcode.MetadataAssignID, []bcMDF{lit0(1)}
	case "DIModule":
		code, fs = bitcode.MetadataModule, n.module(d)
	case "DIMacro":
		code, fs = bitcode.MetadataMacro, n.macro(d)
	case "DIMacroFile":
		code, fs = bitcode.MetadataMacroFile, n.macroFile(d)
	case "DICommonBlock":
		code, fs = bitcode.MetadataCommonBlock, n.commonBlock(d)
	case "DIStringType":
		code, fs = bitcode.MetadataStringType, n.stringType(d)
	case "DIGenericSubrange":
		code, fs = bitcode.MetadataGenericSubrange, n.genericSubrange(d)
	case "DIObjCProperty":
		code, fs = bitcode.MetadataObjCProperty, n.objCProperty(d, a.gen)
	case "GenericDINode":
		code, fs = bitcode.MetadataGenericDebug, n.genericDINode(d)
	default:
		a.unsupported(n.at, "!"+n.name)
	}
	x.code, x.fields = code, fs
}

var diKeywords = map[string]uint64{}

var dwMacinfo = map[string]uint64{
	"DW_MACINFO_define": 1, "DW_MACINFO_undef": 2, "DW_MACINFO_start_file": 3, "DW_MACINFO_end_file": 4,
	"DW_MACINFO_vendor_ext": 0xff,
}

var diChecksums = map[string]uint64{"CSK_MD5": 1, "CSK_SHA1": 2, "CSK_SHA256": 3}
var diEmission = map[string]uint64{"NoDebug": 0, "FullDebug": 1, "LineTablesOnly": 2, "DebugDirectivesOnly": 3}
var diNameTable = map[string]uint64{"Default": 0, "GNU": 1, "None": 2, "Apple": 3}

var diSPFlags = map[string]uint64{
	"DISPFlagZero": 0, "DISPFlagVirtual": 1, "DISPFlagPureVirtual": 2, "DISPFlagLocalToUnit": 4,
	"DISPFlagDefinition": 8, "DISPFlagOptimized": 16, "DISPFlagPure": 32, "DISPFlagElemental": 64,
	"DISPFlagRecursive": 128, "DISPFlagMainSubprogram": 256, "DISPFlagDeleted": 512, "DISPFlagObjCDirect": 2048,
}

var diFlags = map[string]uint64{
	"DIFlagZero": 0, "DIFlagPrivate": 1, "DIFlagProtected": 2, "DIFlagPublic": 3, "DIFlagFwdDecl": 4,
	"DIFlagAppleBlock": 8, "DIFlagReservedBit4": 16, "DIFlagVirtual": 32, "DIFlagArtificial": 64,
	"DIFlagExplicit": 128, "DIFlagPrototyped": 256, "DIFlagObjcClassComplete": 512, "DIFlagObjectPointer": 1024,
	"DIFlagVector": 2048, "DIFlagStaticMember": 4096, "DIFlagLValueReference": 8192,
	"DIFlagRValueReference": 16384, "DIFlagExportSymbols": 32768, "DIFlagSingleInheritance": 65536,
	"DIFlagMultipleInheritance": 131072, "DIFlagVirtualInheritance": 196608, "DIFlagIntroducedVirtual": 262144,
	"DIFlagBitField": 524288, "DIFlagNoReturn": 1048576, "DIFlagTypePassByValue": 4194304,
	"DIFlagTypePassByReference": 8388608, "DIFlagEnumClass": 16777216, "DIFlagThunk": 33554432,
	"DIFlagNonTrivial": 67108864, "DIFlagBigEndian": 134217728, "DIFlagLittleEndian": 268435456,
	"DIFlagAllCallsDescribed":   536870912,
	"DIFlagIndirectVirtualBase": 36, "DIFlagNameIsSimplified": 1 << 30,
}

var dwCC = map[string]uint64{
	"DW_CC_normal": 1, "DW_CC_program": 2, "DW_CC_nocall": 3, "DW_CC_pass_by_reference": 4,
	"DW_CC_pass_by_value": 5, "DW_CC_LLVM_vectorcall": 0xc0, "DW_CC_LLVM_Win64": 0xc1,
	"DW_CC_LLVM_X86_64SysV": 0xc2, "DW_CC_LLVM_AAPCS": 0xc3, "DW_CC_LLVM_AAPCS_VFP": 0xc4,
	"DW_CC_LLVM_IntelOclBicc": 0xc5, "DW_CC_LLVM_SpirFunction": 0xc6, "DW_CC_LLVM_OpenCLKernel": 0xc7,
	"DW_CC_LLVM_Swift": 0xc8, "DW_CC_LLVM_PreserveMost": 0xc9, "DW_CC_LLVM_PreserveAll": 0xca,
	"DW_CC_LLVM_X86RegCall": 0xcb, "DW_CC_LLVM_M68kRTD": 0xcc, "DW_CC_LLVM_PreserveNone": 0xcd,
	"DW_CC_LLVM_RISCVVectorCall": 0xce, "DW_CC_LLVM_SwiftTail": 0xcf, "DW_CC_LLVM_RISCVVLSCall": 0xd0,
	"DW_CC_LLVM_DeviceKernel": 0xc7, "DW_CC_GDB_IBM_OpenCL": 0xff,
}

var dwATE = map[string]uint64{
	"DW_ATE_address": 1, "DW_ATE_boolean": 2, "DW_ATE_complex_float": 3, "DW_ATE_float": 4,
	"DW_ATE_signed": 5, "DW_ATE_signed_char": 6, "DW_ATE_unsigned": 7, "DW_ATE_unsigned_char": 8,
	"DW_ATE_imaginary_float": 9, "DW_ATE_packed_decimal": 0xa, "DW_ATE_numeric_string": 0xb,
	"DW_ATE_edited": 0xc, "DW_ATE_signed_fixed": 0xd, "DW_ATE_unsigned_fixed": 0xe,
	"DW_ATE_decimal_float": 0xf, "DW_ATE_UTF": 0x10, "DW_ATE_UCS": 0x11, "DW_ATE_ASCII": 0x12,
}

var dwLangs = map[string]uint64{
	"DW_LANG_C89": 1, "DW_LANG_C": 2, "DW_LANG_Ada83": 3, "DW_LANG_C_plus_plus": 4, "DW_LANG_Cobol74": 5,
	"DW_LANG_Cobol85": 6, "DW_LANG_Fortran77": 7, "DW_LANG_Fortran90": 8, "DW_LANG_Pascal83": 9,
	"DW_LANG_Modula2": 0xa, "DW_LANG_Java": 0xb, "DW_LANG_C99": 0xc, "DW_LANG_Ada95": 0xd,
	"DW_LANG_Fortran95": 0xe, "DW_LANG_PLI": 0xf, "DW_LANG_ObjC": 0x10, "DW_LANG_ObjC_plus_plus": 0x11,
	"DW_LANG_UPC": 0x12, "DW_LANG_D": 0x13, "DW_LANG_Python": 0x14, "DW_LANG_OpenCL": 0x15, "DW_LANG_Go": 0x16,
	"DW_LANG_Modula3": 0x17, "DW_LANG_Haskell": 0x18, "DW_LANG_C_plus_plus_03": 0x19,
	"DW_LANG_C_plus_plus_11": 0x1a, "DW_LANG_OCaml": 0x1b, "DW_LANG_Rust": 0x1c, "DW_LANG_C11": 0x1d,
	"DW_LANG_Swift": 0x1e, "DW_LANG_Julia": 0x1f, "DW_LANG_Dylan": 0x20, "DW_LANG_C_plus_plus_14": 0x21,
	"DW_LANG_Fortran03": 0x22, "DW_LANG_Fortran08": 0x23, "DW_LANG_RenderScript": 0x24, "DW_LANG_BLISS": 0x25,
	"DW_LANG_Kotlin": 0x26, "DW_LANG_Zig": 0x27, "DW_LANG_Crystal": 0x28, "DW_LANG_C_plus_plus_17": 0x2a,
	"DW_LANG_C_plus_plus_20": 0x2b, "DW_LANG_C17": 0x2c, "DW_LANG_Fortran18": 0x2d, "DW_LANG_Ada2005": 0x2e,
	"DW_LANG_Ada2012": 0x2f, "DW_LANG_HIP": 0x30, "DW_LANG_Assembly": 0x31, "DW_LANG_C_sharp": 0x32,
	"DW_LANG_Mojo": 0x33, "DW_LANG_GLSL": 0x34, "DW_LANG_GLSL_ES": 0x35,
	"DW_LANG_HLSL": 0x36, "DW_LANG_OpenCL_CPP": 0x37, "DW_LANG_CPP_for_OpenCL": 0x38, "DW_LANG_SYCL": 0x39,
	"DW_LANG_Ruby": 0x40, "DW_LANG_Move": 0x41, "DW_LANG_Hylo": 0x42, "DW_LANG_Metal": 0x3d, "DW_LANG_Mips_Assembler": 0x8001, "DW_LANG_GOOGLE_RenderScript": 0x8e57,
	"DW_LANG_BORLAND_Delphi": 0xb000,
}

var dwTags = map[string]uint64{
	"DW_TAG_array_type": 0x01, "DW_TAG_class_type": 0x02, "DW_TAG_entry_point": 0x03,
	"DW_TAG_enumeration_type": 0x04, "DW_TAG_formal_parameter": 0x05, "DW_TAG_imported_declaration": 0x08,
	"DW_TAG_label": 0x0a, "DW_TAG_lexical_block": 0x0b, "DW_TAG_member": 0x0d, "DW_TAG_pointer_type": 0x0f,
	"DW_TAG_reference_type": 0x10, "DW_TAG_compile_unit": 0x11, "DW_TAG_string_type": 0x12,
	"DW_TAG_structure_type": 0x13, "DW_TAG_subroutine_type": 0x15, "DW_TAG_typedef": 0x16,
	"DW_TAG_union_type": 0x17, "DW_TAG_unspecified_parameters": 0x18, "DW_TAG_variant": 0x19,
	"DW_TAG_common_block": 0x1a, "DW_TAG_common_inclusion": 0x1b, "DW_TAG_inheritance": 0x1c,
	"DW_TAG_inlined_subroutine": 0x1d, "DW_TAG_module": 0x1e, "DW_TAG_ptr_to_member_type": 0x1f,
	"DW_TAG_set_type": 0x20, "DW_TAG_subrange_type": 0x21, "DW_TAG_with_stmt": 0x22,
	"DW_TAG_access_declaration": 0x23, "DW_TAG_base_type": 0x24, "DW_TAG_catch_block": 0x25,
	"DW_TAG_const_type": 0x26, "DW_TAG_constant": 0x27, "DW_TAG_enumerator": 0x28, "DW_TAG_file_type": 0x29,
	"DW_TAG_friend": 0x2a, "DW_TAG_namelist": 0x2b, "DW_TAG_namelist_item": 0x2c, "DW_TAG_packed_type": 0x2d,
	"DW_TAG_subprogram": 0x2e, "DW_TAG_template_type_parameter": 0x2f,
	"DW_TAG_template_value_parameter": 0x30, "DW_TAG_thrown_type": 0x31, "DW_TAG_try_block": 0x32,
	"DW_TAG_variant_part": 0x33, "DW_TAG_variable": 0x34, "DW_TAG_volatile_type": 0x35,
	"DW_TAG_dwarf_procedure": 0x36, "DW_TAG_restrict_type": 0x37, "DW_TAG_interface_type": 0x38,
	"DW_TAG_namespace": 0x39, "DW_TAG_imported_module": 0x3a, "DW_TAG_unspecified_type": 0x3b,
	"DW_TAG_partial_unit": 0x3c, "DW_TAG_imported_unit": 0x3d, "DW_TAG_condition": 0x3f,
	"DW_TAG_shared_type": 0x40, "DW_TAG_type_unit": 0x41, "DW_TAG_rvalue_reference_type": 0x42,
	"DW_TAG_template_alias": 0x43, "DW_TAG_coarray_type": 0x44, "DW_TAG_generic_subrange": 0x45,
	"DW_TAG_dynamic_type": 0x46, "DW_TAG_atomic_type": 0x47, "DW_TAG_call_site": 0x48,
	"DW_TAG_call_site_parameter": 0x49, "DW_TAG_skeleton_unit": 0x4a, "DW_TAG_immutable_type": 0x4b,
	"DW_TAG_GNU_template_template_param": 0x4106, "DW_TAG_GNU_template_parameter_pack": 0x4107,
	"DW_TAG_GNU_formal_parameter_pack": 0x4108, "DW_TAG_APPLE_property": 0x4200,
}

var dwOps = map[string]uint64{
	"DW_OP_addr": 0x03, "DW_OP_deref": 0x06, "DW_OP_const1u": 0x08, "DW_OP_const1s": 0x09,
	"DW_OP_const2u": 0x0a, "DW_OP_const2s": 0x0b, "DW_OP_const4u": 0x0c, "DW_OP_const4s": 0x0d,
	"DW_OP_const8u": 0x0e, "DW_OP_const8s": 0x0f, "DW_OP_constu": 0x10, "DW_OP_consts": 0x11,
	"DW_OP_dup": 0x12, "DW_OP_drop": 0x13, "DW_OP_over": 0x14, "DW_OP_pick": 0x15, "DW_OP_swap": 0x16,
	"DW_OP_rot": 0x17, "DW_OP_xderef": 0x18, "DW_OP_abs": 0x19, "DW_OP_and": 0x1a, "DW_OP_div": 0x1b,
	"DW_OP_minus": 0x1c, "DW_OP_mod": 0x1d, "DW_OP_mul": 0x1e, "DW_OP_neg": 0x1f, "DW_OP_not": 0x20,
	"DW_OP_or": 0x21, "DW_OP_plus": 0x22, "DW_OP_plus_uconst": 0x23, "DW_OP_shl": 0x24, "DW_OP_shr": 0x25,
	"DW_OP_shra": 0x26, "DW_OP_xor": 0x27, "DW_OP_bra": 0x28, "DW_OP_eq": 0x29, "DW_OP_ge": 0x2a,
	"DW_OP_gt": 0x2b, "DW_OP_le": 0x2c, "DW_OP_lt": 0x2d, "DW_OP_ne": 0x2e, "DW_OP_skip": 0x2f,
	"DW_OP_regx": 0x90, "DW_OP_fbreg": 0x91, "DW_OP_bregx": 0x92, "DW_OP_piece": 0x93,
	"DW_OP_deref_size": 0x94, "DW_OP_xderef_size": 0x95, "DW_OP_nop": 0x96,
	"DW_OP_push_object_address": 0x97, "DW_OP_call2": 0x98, "DW_OP_call4": 0x99, "DW_OP_call_ref": 0x9a,
	"DW_OP_form_tls_address": 0x9b, "DW_OP_call_frame_cfa": 0x9c, "DW_OP_bit_piece": 0x9d,
	"DW_OP_implicit_value": 0x9e, "DW_OP_stack_value": 0x9f, "DW_OP_implicit_pointer": 0xa0,
	"DW_OP_addrx": 0xa1, "DW_OP_constx": 0xa2, "DW_OP_entry_value": 0xa3, "DW_OP_const_type": 0xa4,
	"DW_OP_regval_type": 0xa5, "DW_OP_deref_type": 0xa6, "DW_OP_xderef_type": 0xa7, "DW_OP_convert": 0xa8,
	"DW_OP_reinterpret": 0xa9, "DW_OP_GNU_push_tls_address": 0xe0, "DW_OP_GNU_entry_value": 0xf3,
	"DW_OP_LLVM_fragment": 0x1000, "DW_OP_LLVM_convert": 0x1001, "DW_OP_LLVM_tag_offset": 0x1002,
	"DW_OP_LLVM_entry_value": 0x1003, "DW_OP_LLVM_implicit_pointer": 0x1004, "DW_OP_LLVM_arg": 0x1005,
	"DW_OP_LLVM_extract_bits_sext": 0x1006, "DW_OP_LLVM_extract_bits_zext": 0x1007,
}

func init() {
	for i := 0; i < 32; i++ {
		dwOps["DW_OP_lit"+strconv.Itoa(i)] = 0x30 + uint64(i)
		dwOps["DW_OP_reg"+strconv.Itoa(i)] = 0x50 + uint64(i)
		dwOps["DW_OP_breg"+strconv.Itoa(i)] = 0x70 + uint64(i)
	}
}
