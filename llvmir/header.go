package llvmir

var linkageWords = map[string]Linkage{
	"private": Private, "internal": Internal, "available_externally": AvailableExternally,
	"linkonce": LinkOnce, "weak": Weak, "common": Common, "appending": Appending,
	"extern_weak": ExternWeak, "linkonce_odr": LinkOnceODR, "weak_odr": WeakODR, "external": External,
}

// callingConvs are the named calling conventions; "cc N" is handled apart.
var callingConvs = map[string]bool{
	"ccc": true, "fastcc": true, "coldcc": true, "webkit_jscc": true, "anyregcc": true,
	"preserve_mostcc": true, "preserve_allcc": true, "preserve_nonecc": true, "ghccc": true,
	"swiftcc": true, "swifttailcc": true, "x86_intrcc": true, "hhvmcc": true, "hhvm_ccc": true,
	"cxx_fast_tlscc": true, "amdgpu_vs": true, "amdgpu_ls": true, "amdgpu_hs": true, "amdgpu_es": true,
	"amdgpu_gs": true, "amdgpu_ps": true, "amdgpu_cs": true, "amdgpu_cs_chain": true,
	"amdgpu_cs_chain_preserve": true, "amdgpu_kernel": true, "amdgpu_gfx": true, "tailcc": true,
	"m68k_rtdcc": true, "graalcc": true, "riscv_vector_cc": true, "x86_stdcallcc": true,
	"x86_fastcallcc": true, "x86_thiscallcc": true, "x86_vectorcallcc": true, "x86_regcallcc": true,
	"arm_apcscc": true, "arm_aapcscc": true, "arm_aapcs_vfpcc": true, "aarch64_vector_pcs": true,
	"aarch64_sve_vector_pcs": true, "aarch64_sme_preservemost_from_x0": true,
	"aarch64_sme_preservemost_from_x1": true, "aarch64_sme_preservemost_from_x2": true,
	"msp430_intrcc": true, "avr_intrcc": true, "avr_signalcc": true, "ptx_kernel": true,
	"ptx_device": true, "spir_kernel": true, "spir_func": true, "intel_ocl_bicc": true,
	"x86_64_sysvcc": true, "win64cc": true, "cfguard_checkcc": true,
}

// spanFrom returns the span from start to the start of the current token
// (a consumed token and the blanks after it).
func (p *parser) spanFrom(start int) span {
	return span{int32(start), int32(p.tok.start)}
}

// parseGlobalHeader parses linkage, preemption, visibility and DLL storage.
func (p *parser) parseGlobalHeader(h *GlobalHeader) (hasLinkage bool) {
	h.Linkage = External
	h.linkageAt = span{int32(p.tok.start), int32(p.tok.start)}
	if p.tok.kind == tIdent {
		if l, ok := linkageWords[p.text(p.tok)]; ok {
			start := p.tok.start
			h.Linkage = l
			p.next()
			h.linkageAt = p.spanFrom(start)
			hasLinkage = true
		}
	}
	if p.isIdent("dso_local") || p.isIdent("dso_preemptable") {
		start := p.tok.start
		h.Preemption = p.text(p.tok)
		p.next()
		h.preemptAt = p.spanFrom(start)
	}
	if p.isIdent("default") || p.isIdent("hidden") || p.isIdent("protected") {
		start := p.tok.start
		h.Visibility = p.text(p.tok)
		p.next()
		h.visAt = p.spanFrom(start)
	}
	if p.isIdent("dllimport") || p.isIdent("dllexport") {
		start := p.tok.start
		h.DLLStorage = p.text(p.tok)
		p.next()
		h.dllAt = p.spanFrom(start)
	}
	return hasLinkage
}

// parseFunction parses "declare …" or "define … { … }".
func (p *parser) parseFunction(e *Entity) {
	f := &Function{}
	e.Kind, e.Func = KindFunction, f
	f.Declaration = p.isIdent("declare")
	f.declAt = span{int32(p.tok.start), int32(p.tok.end)}
	p.next()
	if f.Declaration {
		for p.tok.kind == tMetaVar {
			f.Attachments = append(f.Attachments, p.parseAttachment())
		}
	}
	p.parseGlobalHeader(&f.GlobalHeader)
	f.CallingConv = p.parseCallingConv()
	// Return attributes: anything before the type that is not a type.
	for (p.tok.kind == tIdent && !isTypeKeyword(p.bytes(p.tok))) || p.tok.kind == tString {
		f.RetAttrs = append(f.RetAttrs, p.parseAttr())
	}
	f.RetType = p.parseType()
	nameTok := p.tok
	switch nameTok.kind {
	case tGlobal:
		e.Name = p.name(nameTok)
	case tGlobalN:
		e.Name, e.Numbered, e.ID = p.text(nameTok)[1:], true, p.number(nameTok)
	default:
		p.failTok("expected a function name")
	}
	p.selfAt = nameTok.start
	p.next()
	p.parseParams(f)
	f.attrEnd = int32(p.prevEnd)
	p.parseFunctionAttrs(e, f)
	p.register(e, nameTok)
	p.parseFunctionBody(e, f)
}

// parseFunctionAttrs parses what follows a function's parameters up to its
// body: attributes, attribute groups, attachments and the keyword
// properties.
func (p *parser) parseFunctionAttrs(e *Entity, f *Function) {
	for {
		t := p.tok
		switch t.kind {
		case tAttrID:
			f.AttrGroups = append(f.AttrGroups, p.number(t))
			f.groupAt = span{int32(t.start), int32(t.end)}
			p.next()
			f.attrEnd = int32(p.prevEnd)
			continue
		case tString:
			f.FnAttrs = append(f.FnAttrs, p.parseAttr())
			f.attrEnd = int32(p.prevEnd)
			continue
		case tMetaVar:
			if f.Declaration {
				return
			}
			start := p.prevEnd
			f.Attachments = append(f.Attachments, p.parseAttachment())
			f.dropAt = append(f.dropAt, span{int32(start), int32(p.prevEnd)})
			continue
		case tIdent:
			if w := p.text(t); !topKeywords[w] {
				p.parseFunctionProperty(e, f, w)
				continue
			}
		}
		return
	}
}

// parseFunctionProperty parses the function property or attribute that
// starts with word w.
func (p *parser) parseFunctionProperty(e *Entity, f *Function, w string) {
	start := p.prevEnd
	switch w {
	case "unnamed_addr", "local_unnamed_addr":
		f.UnnamedAddr = w
		p.next()
		f.attrEnd = int32(p.prevEnd)
	case "addrspace":
		f.AddrSpace = int(p.parseAddrSpace())
		f.attrEnd = int32(p.prevEnd)
	case "section":
		p.next()
		f.Section = p.expectString()
	case "partition":
		p.next()
		f.Partition = p.expectString()
	case "comdat":
		f.Comdat = p.parseComdatRef(e.Name)
		f.dropAt = append(f.dropAt, span{int32(start), int32(p.prevEnd)})
	case "align":
		p.next()
		f.Align = p.expectUint("alignment")
	case "gc":
		p.next()
		f.GC = p.expectString()
	case "prefix", "prologue", "personality":
		p.next()
		vstart := p.tok.start
		p.parseType()
		p.skipValue()
		v := str(p.src[vstart:p.prevEnd])
		switch w {
		case "prefix":
			f.Prefix = v
		case "prologue":
			f.Prologue = v
		default:
			f.Personality = v
		}
		f.dropAt = append(f.dropAt, span{int32(start), int32(p.prevEnd)})
	default:
		f.FnAttrs = append(f.FnAttrs, p.parseAttr())
		f.attrEnd = int32(p.prevEnd)
	}
}

// parseFunctionBody ends a function's header, scans the header's
// references and, for a definition, the body (or leaves it to the body
// workers).
func (p *parser) parseFunctionBody(e *Entity, f *Function) {
	headerRefsFrom := e.Off
	if f.Declaration {
		f.headerEnd = int32(p.prevEnd)
		p.scan(headerRefsFrom, p.prevEnd, nil)
		return
	}
	if !p.isPunct('{') {
		p.failTok("expected '{' to start the function body")
	}
	f.headerEnd = int32(p.tok.start)
	p.scan(headerRefsFrom, p.tok.start, nil)
	open := p.tok.start
	if p.bodies != nil {
		if end := p.deferBody(e, open); end >= 0 {
			f.body = span{int32(open), int32(end)}
			p.prevEnd = end
			return
		}
	}
	end := p.scan(open, len(p.src), f)
	f.body = span{int32(open), int32(end)}
	p.prevEnd = end
}

func (p *parser) parseCallingConv() string {
	if p.tok.kind != tIdent {
		return ""
	}
	w := p.text(p.tok)
	if callingConvs[w] {
		p.next()
		return w
	}
	if w == "cc" {
		p.next()
		n := p.expectUint("calling convention number")
		return "cc " + itoa(int(n))
	}
	return ""
}

// parseParams parses "(params)" of a function header.
func (p *parser) parseParams(f *Function) {
	p.expectPunct('(')
	for !p.isPunct(')') {
		if p.tok.kind == tDots {
			p.next()
			f.VarArg = true
			break
		}
		var prm Param
		prm.Type = p.parseType()
		for (p.tok.kind == tIdent && !isTypeKeyword(p.bytes(p.tok))) || p.tok.kind == tString {
			prm.Attrs = append(prm.Attrs, p.parseAttr())
		}
		prm.attrEnd = int32(p.prevEnd)
		switch p.tok.kind {
		case tLocal:
			prm.Name = p.name(p.tok)
			p.next()
		case tLocalN:
			prm.Name = p.text(p.tok)[1:]
			p.next()
		}
		f.Params = append(f.Params, prm)
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
}

// parseComdatRef parses "comdat" or "comdat($name)"; self names the
// entity for the bare form.
func (p *parser) parseComdatRef(self string) string {
	p.expectIdent("comdat")
	if p.isPunct('(') {
		p.next()
		if p.tok.kind != tComdat {
			p.failTok("expected a comdat name")
		}
		name := p.name(p.tok)
		p.next()
		p.expectPunct(')')
		return name
	}
	return self
}

// parseAttachment parses "!kind !N", "!kind !{…}" or "!kind !DIxxx(…)".
func (p *parser) parseAttachment() Attachment {
	a := Attachment{Kind: p.name(p.tok)}
	p.next()
	switch p.tok.kind {
	case tMetaID:
		a.refID = int32(p.number(p.tok))
		p.next()
	case tExcl, tMetaVar:
		a.refID, a.at = -1, int32(p.tok.start)
		a.Node = p.parseInlineNode()
	default:
		p.failTok("expected a metadata node")
	}
	return a
}

// register records a global value under its name.
func (p *parser) register(e *Entity, nameTok token) {
	m := p.m
	if e.Numbered {
		if m.numbered[e.ID] != nil {
			p.fail(nameTok.start, "redefinition of global '@"+e.Name+"'")
		}
		m.numbered[e.ID] = e
		if e.ID > m.maxGlobal {
			m.maxGlobal = e.ID
		}
		e.numAt = true
		return
	}
	if m.globals[e.Name] != nil {
		p.fail(nameTok.start, "redefinition of global '@"+e.Name+"'")
	}
	m.globals[e.Name] = e
}

// parseGlobal parses a global variable, alias or ifunc.
func (p *parser) parseGlobal(e *Entity) {
	nameTok := p.tok
	if nameTok.kind == tGlobalN {
		e.Name, e.Numbered, e.ID = p.text(nameTok)[1:], true, p.number(nameTok)
	} else {
		e.Name = p.name(nameTok)
	}
	p.selfAt = nameTok.start
	p.next()
	p.expectPunct('=')
	var h GlobalHeader
	hasLinkage := p.parseGlobalHeader(&h)
	p.parseGlobalProperties(&h)
	refsFrom := e.Off
	switch {
	case p.isIdent("alias") || p.isIdent("ifunc"):
		p.parseAlias(e, &h)
	case p.isIdent("externally_initialized") || p.isIdent("global") || p.isIdent("constant"):
		p.parseGlobalVar(e, &h, hasLinkage)
	default:
		p.failTok("expected 'global', 'constant', 'alias' or 'ifunc'")
	}
	p.register(e, nameTok)
	p.scan(refsFrom, p.prevEnd, nil)
}

// parseGlobalProperties parses the thread_local mode, unnamed_addr and
// address space that may follow a global's linkage.
func (p *parser) parseGlobalProperties(h *GlobalHeader) {
	if p.isIdent("thread_local") {
		start := p.tok.start
		p.next()
		if p.isPunct('(') {
			p.skipBalanced()
		}
		h.ThreadLocal = str(p.src[start:p.prevEnd])
	}
	if p.isIdent("unnamed_addr") || p.isIdent("local_unnamed_addr") {
		h.UnnamedAddr = p.text(p.tok)
		p.next()
	}
	if p.isIdent("addrspace") {
		h.AddrSpace = int(p.parseAddrSpace())
	}
}

// parseAlias parses an alias or ifunc from its keyword on.
func (p *parser) parseAlias(e *Entity, h *GlobalHeader) {
	a := &Alias{GlobalHeader: *h, IFunc: p.isIdent("ifunc")}
	e.Kind, e.Alias = KindAlias, a
	if a.IFunc {
		e.Kind = KindIFunc
	}
	p.next()
	a.Type = p.parseType()
	p.expectPunct(',')
	vstart := p.tok.start
	if !p.untypedResolver(a.IFunc) {
		p.parseType()
	}
	c := p.parseValue(nil)
	a.Target = str(p.src[vstart:p.prevEnd])
	a.pointsTok = c.globalTok()
	for p.acceptPunct(',') {
		switch {
		case p.acceptIdent("partition"):
			p.expectString()
		case p.tok.kind == tMetaVar:
			p.parseAttachment()
		default:
			p.failTok("expected 'partition' or a metadata attachment")
		}
	}
}

// parseGlobalVar parses a global variable from "externally_initialized",
// "global" or "constant" on; hasLinkage says whether its linkage was
// written.
func (p *parser) parseGlobalVar(e *Entity, h *GlobalHeader, hasLinkage bool) {
	g := &GlobalVar{GlobalHeader: *h}
	e.Kind, e.Var = KindGlobalVar, g
	if p.acceptIdent("externally_initialized") {
		g.ExternallyInitialized = true
	}
	switch {
	case p.acceptIdent("global"):
	case p.acceptIdent("constant"):
		g.Constant = true
	default:
		p.failTok("expected 'global' or 'constant'")
	}
	g.Type = p.parseType()
	if !hasLinkage || (h.Linkage != External && h.Linkage != ExternWeak) {
		istart := p.prevEnd
		vstart := p.tok.start
		p.skipValue()
		g.Init = str(p.src[vstart:p.prevEnd])
		g.initAt = span{int32(istart), int32(p.prevEnd)}
	} else {
		g.initAt = span{int32(p.prevEnd), int32(p.prevEnd)}
	}
	p.parseGlobalVarTail(e, g)
}

func (p *parser) parseGlobalVarTail(e *Entity, g *GlobalVar) {
	for p.isPunct(',') {
		start := p.prevEnd
		p.next()
		t := p.tok
		switch {
		case t.kind == tMetaVar:
			g.Attachments = append(g.Attachments, p.parseAttachment())
		case p.acceptIdent("section"):
			g.Section = p.expectString()
		case p.acceptIdent("partition"):
			g.Partition = p.expectString()
		case p.isIdent("comdat"):
			g.Comdat = p.parseComdatRef(e.Name)
			g.dropAt = append(g.dropAt, span{int32(start), int32(p.prevEnd)})
		case p.acceptIdent("align"):
			g.Align = p.expectUint("alignment")
		case p.isIdent("code_model"):
			p.next()
			p.expectString()
			g.Other = append(g.Other, str(p.src[t.start:p.prevEnd]))
		case t.kind == tIdent:
			p.next()
			g.Other = append(g.Other, p.text(t))
		default:
			p.failTok("expected a global variable property")
		}
	}
	for {
		switch p.tok.kind {
		case tAttrID:
			g.AttrGroups = append(g.AttrGroups, p.number(p.tok))
			p.next()
			continue
		case tString:
			g.Attrs = append(g.Attrs, p.parseAttr())
			continue
		case tIdent:
			if !topKeywords[p.text(p.tok)] {
				g.Attrs = append(g.Attrs, p.parseAttr())
				continue
			}
		}
		return
	}
}

// untypedResolver reports whether an ifunc's resolver follows without its
// type, as typed-pointer IR writes it ("ifunc i32 (), bitcast (…)").
func (p *parser) untypedResolver(ifunc bool) bool {
	return ifunc && (p.tok.kind == tGlobal || p.tok.kind == tGlobalN || (p.tok.kind == tIdent && exprOps[p.text(p.tok)]))
}
