package llvmir

import (
	"math/big"
)

// The records of the specialized nodes, one method per node kind: each
// returns the fields in LLVM's layout, d being the node's distinct bit.

// location lays out a DILocation.
func (n *diNode) location(d uint64) []bcMDF {
	fs := []bcMDF{lit0(d), n.num("line", 0, nil), n.num("column", 0, nil), n.mdID("scope"), n.md("inlinedAt"),
		lit0(n.boolean("isImplicitCode"))}
	if g, r := n.num("atomGroup", 0, nil), n.num("atomRank", 0, nil); g.v != 0 || r.v != 0 {
		fs = append(fs, g, r)
	}
	return fs
}

// file lays out a DIFile, its checksum and source optional.
func (n *diNode) file(d uint64) []bcMDF {
	fs := []bcMDF{lit0(d), n.md("filename"), n.md("directory")}
	if n.get("checksumkind") != nil {
		fs = append(fs, n.num("checksumkind", 0, diChecksums), n.md("checksum"))
	} else {
		fs = append(fs, lit0(0), bcMDF{isMD: true, ref1: true})
	}
	if n.get("source") != nil {
		fs = append(fs, n.md("source"))
	}
	return fs
}

// basicType lays out a DIBasicType.
func (n *diNode) basicType(d uint64, gen int) []bcMDF {
	fs := []bcMDF{lit0(d), n.num("tag", 0x24, dwTags), n.md("name"), n.num("size", 0, nil), n.num("align", 0, nil),
		n.num("encoding", 0, dwATE), n.num("flags", 0, diFlags)}
	if gen >= 20 {
		fs = append(fs, n.num("num_extra_inhabitants", 0, nil))
	}
	return fs
}

// derivedType lays out a DIDerivedType.
func (n *diNode) derivedType(d uint64, gen int) []bcMDF {
	das := n.num("dwarfAddressSpace", 0, nil)
	if n.get("dwarfAddressSpace") != nil {
		das.v++
	}
	fs := []bcMDF{lit0(d), n.num("tag", 0, dwTags), n.md("name"), n.md("file"), n.num("line", 0, nil), n.md("scope"),
		n.md("baseType"), n.num("size", 0, nil), n.num("align", 0, nil), n.num("offset", 0, nil),
		n.num("flags", 0, diFlags), n.md("extraData"), das, n.md("annotations")}
	if gen >= 19 {
		fs = append(fs, lit0(0))
	}
	return fs
}

// compositeType lays out a DICompositeType.
func (n *diNode) compositeType(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("tag", 0, dwTags), n.md("name"), n.md("file"), n.num("line", 0, nil), n.md("scope"),
		n.md("baseType"), n.num("size", 0, nil), n.num("align", 0, nil), n.num("offset", 0, nil),
		n.num("flags", 0, diFlags), n.md("elements"), n.num("runtimeLang", 0, dwLangs), n.md("vtableHolder"),
		n.md("templateParams"), n.md("identifier"), n.md("discriminator"), n.md("dataLocation"),
		n.md("associated"), n.md("allocated"), n.md("rank"), n.md("annotations")}
}

// subroutineType lays out a DISubroutineType.
func (n *diNode) subroutineType(d uint64) []bcMDF {
	return []bcMDF{lit0(2 | d), n.num("flags", 0, diFlags), n.md("types"), n.num("cc", 0, dwCC)}
}

// compileUnit lays out a DICompileUnit (always distinct).
func (n *diNode) compileUnit() []bcMDF {
	split := uint64(1)
	if n.get("splitDebugInlining") != nil {
		split = n.boolean("splitDebugInlining")
	}
	return []bcMDF{lit0(1), n.num("language", 0, dwLangs), n.md("file"), n.md("producer"), lit0(n.boolean("isOptimized")),
		n.md("flags"), n.num("runtimeVersion", 0, nil), n.md("splitDebugFilename"),
		n.num("emissionKind", 0, diEmission), n.md("enums"), n.md("retainedTypes"), lit0(0), n.md("globals"),
		n.md("imports"), n.num("dwoId", 0, nil), n.md("macros"), lit0(split),
		lit0(n.boolean("debugInfoForProfiling")), n.num("nameTableKind", 0, diNameTable),
		lit0(n.boolean("rangesBaseAddress")), n.md("sysroot"), n.md("sdk")}
}

// subprogram lays out a DISubprogram, folding the old flag spellings
// into spFlags; a definition is made distinct.
func (n *diNode) subprogram(x *bcMD, d uint64, gen int) []bcMDF {
	sp := n.num("spFlags", 0, diSPFlags)
	if x.distinct && n.get("spFlags") == nil {
		// Old spelling: isDefinition, isLocal, isOptimized, virtuality.
		sp.v = 0
	}
	if n.get("isLocal") != nil && n.boolean("isLocal") != 0 {
		sp.v |= 4
	}
	if n.get("isDefinition") != nil && n.boolean("isDefinition") != 0 {
		sp.v |= 8
	}
	if n.get("isOptimized") != nil && n.boolean("isOptimized") != 0 {
		sp.v |= 16
	}
	if sp.v&8 != 0 {
		x.distinct = true
		d = 1
	}
	fs := []bcMDF{lit0(4 | 2 | d), n.md("scope"), n.md("name"), n.md("linkageName"), n.md("file"), n.num("line", 0, nil),
		n.md("type"), n.num("scopeLine", 0, nil), n.md("containingType"), sp, n.num("virtualIndex", 0, nil),
		n.num("flags", 0, diFlags), n.md("unit"), n.md("templateParams"), n.md("declaration"),
		n.md("retainedNodes"), n.num("thisAdjustment", 0, nil), n.md("thrownTypes"), n.md("annotations")}
	if gen >= 15 {
		fs = append(fs, n.md("targetFuncName"))
	}
	if k := n.boolean("keyInstructions"); k != 0 {
		fs = append(fs, lit0(k))
	}
	return fs
}

// lexicalBlock lays out a DILexicalBlock.
func (n *diNode) lexicalBlock(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("scope"), n.md("file"), n.num("line", 0, nil), n.num("column", 0, nil)}
}

// lexicalBlockFile lays out a DILexicalBlockFile.
func (n *diNode) lexicalBlockFile(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("scope"), n.md("file"), n.num("discriminator", 0, nil)}
}

// namespace lays out a DINamespace.
func (n *diNode) namespace(d uint64) []bcMDF {
	return []bcMDF{lit0(d | n.boolean("exportSymbols")<<1), n.md("scope"), n.md("name")}
}

// localVariable lays out a DILocalVariable.
func (n *diNode) localVariable(d uint64) []bcMDF {
	return []bcMDF{lit0(d | 2), n.md("scope"), n.md("name"), n.md("file"), n.num("line", 0, nil), n.md("type"),
		n.num("arg", 0, nil), n.num("flags", 0, diFlags), n.num("align", 0, nil), n.md("annotations")}
}

// globalVariable lays out a DIGlobalVariable.
func (n *diNode) globalVariable(d uint64) []bcMDF {
	return []bcMDF{lit0(d | 2<<1), n.md("scope"), n.md("name"), n.md("linkageName"), n.md("file"),
		n.num("line", 0, nil), n.md("type"), lit0(n.boolean("isLocal")), lit0(n.boolean("isDefinition")),
		n.md("declaration"), n.md("templateParams"), n.num("align", 0, nil), n.md("annotations")}
}

// globalVariableExpr lays out a DIGlobalVariableExpression.
func (n *diNode) globalVariableExpr(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("var"), n.md("expr")}
}

// subrange lays out a DISubrange.
func (n *diNode) subrange(d uint64) []bcMDF {
	return []bcMDF{lit0(d | 2<<1), n.md("count"), n.md("lowerBound"), n.md("upperBound"), n.md("stride")}
}

// enumerator lays out a DIEnumerator, its value in one word or, when
// wider than 64 bits, in as many as it needs.
func (n *diNode) enumerator(d uint64) []bcMDF {
	p := n.m.a.p
	uns := n.boolean("isUnsigned")
	fd := n.get("value")
	if fd == nil {
		p.fail(n.at, "missing required field 'value'")
	}
	v, ok := new(big.Int).SetString(fd.text, 10)
	if !ok {
		p.fail(fd.at, "expected an integer")
	}
	u := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64()
	if v.BitLen() > 63 && !(v.Sign() > 0 && v.BitLen() == 64) {
		// Wider than 64 bits: the two's complement words of a width
		// that holds the value, least significant first.
		words := (v.BitLen() + 1 + 63) / 64
		if words < 2 {
			words = 2
		}
		m := new(big.Int).Lsh(big.NewInt(1), uint(64*words))
		w := new(big.Int).Mod(v, m)
		fs := []bcMDF{lit0(4 | uns<<1 | d), lit0(uint64(64 * words)), n.md("name")}
		mask := new(big.Int).SetUint64(^uint64(0))
		for i := 0; i < words; i++ {
			word := new(big.Int).And(new(big.Int).Rsh(w, uint(64*i)), mask).Uint64()
			fs = append(fs, lit0(bcSignRotate(word, 64)))
		}
		return fs
	}
	return []bcMDF{lit0(4 | uns<<1 | d), lit0(64), n.md("name"), lit0(bcSignRotate(u, 64))}
}

// templateTypeParam lays out a DITemplateTypeParameter.
func (n *diNode) templateTypeParam(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("name"), n.md("type"), lit0(n.boolean("defaulted"))}
}

// templateValueParam lays out a DITemplateValueParameter.
func (n *diNode) templateValueParam(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("tag", 0x30, dwTags), n.md("name"), n.md("type"), lit0(n.boolean("defaulted")), n.md("value")}
}

// label lays out a DILabel; LLVM 21 added its column and coroutine
// suspend index.
func (n *diNode) label(d uint64, gen int) []bcMDF {
	fs := []bcMDF{lit0(d | n.boolean("isArtificial")<<1), n.md("scope"), n.md("name"), n.md("file"), n.num("line", 0, nil)}
	if gen >= 21 {
		fs = append(fs, n.num("column", 0, nil))
		if n.get("coroSuspendIdx") != nil {
			fs = append(fs, n.num("coroSuspendIdx", 0, nil))
		}
	}
	return fs
}

// importedEntity lays out a DIImportedEntity.
func (n *diNode) importedEntity(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("tag", 0, dwTags), n.md("scope"), n.md("entity"), n.num("line", 0, nil), n.md("name"),
		n.md("file"), n.md("elements")}
}

// module lays out a DIModule.
func (n *diNode) module(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("file"), n.md("scope"), n.md("name"), n.md("configMacros"), n.md("includePath"),
		n.md("apinotes"), n.num("line", 0, nil), lit0(n.boolean("isDecl"))}
}

// macro lays out a DIMacro.
func (n *diNode) macro(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("type", 0, dwMacinfo), n.num("line", 0, nil), n.md("name"), n.md("value")}
}

// macroFile lays out a DIMacroFile.
func (n *diNode) macroFile(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("type", 3, dwMacinfo), n.num("line", 0, nil), n.md("file"), n.md("nodes")}
}

// commonBlock lays out a DICommonBlock.
func (n *diNode) commonBlock(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("scope"), n.md("declaration"), n.md("name"), n.md("file"), n.num("line", 0, nil)}
}

// stringType lays out a DIStringType.
func (n *diNode) stringType(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.num("tag", 0x12, dwTags), n.md("name"), n.md("stringLength"),
		n.md("stringLengthExpression"), n.md("stringLocationExpression"), n.num("size", 0, nil),
		n.num("align", 0, nil), n.num("encoding", 0, dwATE)}
}

// genericSubrange lays out a DIGenericSubrange.
func (n *diNode) genericSubrange(d uint64) []bcMDF {
	return []bcMDF{lit0(d), n.md("count"), n.md("lowerBound"), n.md("upperBound"), n.md("stride")}
}

// objCProperty lays out a DIObjCProperty, its getter and setter in the
// order the generation's reader takes them.
func (n *diNode) objCProperty(d uint64, gen int) []bcMDF {
	// LLVM 22's reader takes the setter first (checked against
	// llvm-dis-22; 20 and 21 not checked), older ones the getter.
	gs, ss := n.md("getter"), n.md("setter")
	if gen >= 22 {
		gs, ss = ss, gs
	}
	return []bcMDF{lit0(d), n.md("name"), n.md("file"), n.num("line", 0, nil), gs, ss,
		n.num("attributes", 0, nil), n.md("type")}
}

// genericDINode lays out a GenericDINode, its operands last.
func (n *diNode) genericDINode(d uint64) []bcMDF {
	fs := []bcMDF{lit0(d), n.num("tag", 0, dwTags), lit0(0), n.md("header")}
	if ops := n.get("operands"); ops != nil {
		for _, o := range ops.list {
			fs = append(fs, bcMDF{isMD: true, ref1: true, ref: o})
		}
	}
	return fs
}
