package split

import (
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Plan turns the part into an llvmir.Plan: the written entities with
// cleanup's edits, the kernel lists and other metadata fixed up. Further
// edits (specialization constants) may be added to the plan before it is
// written. The plan is sparse: it holds, and writing it walks, only what
// the part writes (and the module-level entities), so that each of the
// many modules of a split costs what it writes.
func (p *Part) Plan() *llvmir.Plan {
	s, m := p.s, p.s.M
	ents := m.Entities
	written := p.writtenGlobals()
	globals := make([]*llvmir.Entity, len(written))
	for k, i := range written {
		globals[k] = ents[i]
	}
	plan := m.NewSparsePlan(globals)
	marked := s.marks.get()
	defer s.marks.put(marked)
	for _, e := range p.marked {
		marked.add(int32(e.Index))
	}
	for _, i := range written {
		e := ents[i]
		switch p.st[i] {
		case stDef:
			if l, ok := p.editedLinkage(i); ok && l != s.in.linkage(e) {
				plan.SetLinkage(e, l)
			}
			if marked.has(i) && e.Func != nil {
				plan.AddFnAttr(e, llvmir.Attr{Key: attrEntryPoint, String: true})
			}
			// A one-member comdat of an internalized definition goes in
			// the reference; llvmir cannot drop a definition's comdat yet,
			// and keeping it is valid IR, so it stays (edDropComdat). The
			// plan writes only the comdats written definitions are in.
			if r, ok := s.in.rewritten[e]; ok {
				plan.ReplaceText(e, r.Text)
			}
		case stDecl:
			if !isDecl(e) {
				plan.MakeDeclaration(e)
			}
		case stAlias:
			if p.ed[i]&edAliasDecl != 0 {
				plan.Drop(e)
				if d := aliasDeclaration(e); d != "" {
					plan.Add(llvmir.KindFunction, d)
				}
			}
		}
	}
	// Comdats whose members were all internalized change their selection
	// kind.
	for _, n := range p.comdatSel {
		const sel = "nodeduplicate"
		name := s.md.comdatNames[n]
		if c := m.ComdatNamed(name); c != nil && c.Comdat != nil && c.Comdat.Selection != sel {
			plan.ReplaceText(c, "$"+quoteName(name)+" = comdat "+sel+"\n")
		}
	}
	p.fixKernelLists(plan)
	p.fixRegisteredKernels(plan)
	p.nullDroppedRefs(plan)
	p.stripDeadDebugInfo(plan)
	return plan
}

// writtenGlobals returns the indices of the global values the part writes,
// in module order.
func (p *Part) writtenGlobals() []int32 { return p.written }

// AddStatus adds to plan the sycl-esimd-split-status named metadata (and, for a
// module whose spec constants were replaced by their defaults, the
// sycl.specialization-constants-default-values-module marker), as the
// reference does right before writing a module: its
// getOrInsertNamedMetadata and addOperand append the status to the one the
// input holds already (a module sycl-post-link wrote, split again), rather
// than defining the named metadata twice, which no reader of the text
// accepts.
func AddStatus(plan *llvmir.Plan, status ESIMDStatus, defaultValues bool) {
	n := plan.NewMD("!{i8 " + strconv.Itoa(int(status)) + "}")
	if ops, ok := keptNamedOps(plan, "sycl-esimd-split-status"); ok {
		plan.SetNamedMDOps(plan.Module().NamedMD("sycl-esimd-split-status"), append(ops, "!"+strconv.Itoa(n)))
	} else {
		plan.Add(llvmir.KindNamedMD, "!sycl-esimd-split-status = !{!"+strconv.Itoa(n)+"}")
	}
	if _, ok := keptNamedOps(plan, "sycl.specialization-constants-default-values-module"); defaultValues && !ok {
		plan.Add(llvmir.KindNamedMD, "!sycl.specialization-constants-default-values-module = !{}")
	}
}

// keptNamedOps returns the operands of the input's named metadata name
// ("!3" each) when the plan writes it, and whether it does: not when the
// input has none, the plan leaves it out, or an operand is not a
// reference to a numbered node (it is then left out, and written anew).
func keptNamedOps(plan *llvmir.Plan, name string) ([]string, bool) {
	e := plan.Module().NamedMD(name)
	if e == nil || e.Named == nil || !plan.Kept(e) {
		return nil, false
	}
	ops := make([]string, 0, len(e.Named.Ops)+1)
	for i := range e.Named.Ops {
		op := &e.Named.Ops[i]
		if op.Kind != llvmir.MDRef || op.Ref == nil {
			plan.Drop(e)
			return nil, false
		}
		ops = append(ops, "!"+op.Ref.Name)
	}
	return ops, true
}

// AddAuxInfo adds to plan a module's property sets and symbol table as
// the strings of the named metadata !sycl_properties and
// !sycl_symbol_table (-embed-aux-info-as-metadata); a nil symbol table is
// left out.
func AddAuxInfo(plan *llvmir.Plan, props []byte, syms *string) {
	n := plan.NewMD("!{!" + quoteMDString(string(props)) + "}")
	plan.Add(llvmir.KindNamedMD, "!sycl_properties = !{!"+strconv.Itoa(n)+"}")
	if syms != nil {
		n := plan.NewMD("!{!" + quoteMDString(*syms) + "}")
		plan.Add(llvmir.KindNamedMD, "!sycl_symbol_table = !{!"+strconv.Itoa(n)+"}")
	}
}

// fixKernelLists keeps in !nvvm.annotations and !spirv.ExecutionMode only
// the operands whose function the part writes (operands that name no
// global value stay); an emptied list goes.
func (p *Part) fixKernelLists(plan *llvmir.Plan) {
	for _, nm := range p.s.md.kernelLists {
		var ops []string
		changed := false
		for i := range nm.Named.Ops {
			op := &nm.Named.Ops[i]
			if op.Kind != llvmir.MDRef || op.Ref == nil || op.Ref.Node == nil {
				ops = nil
				changed = false
				break
			}
			n := op.Ref.Node
			if len(n.Ops) > 0 && n.Ops[0].Kind == llvmir.MDNull && nm.Name == "spirv.ExecutionMode" {
				changed = true
				continue
			}
			if g := annotatedFunc(n); g != nil && p.st[g.Index] == stNone {
				changed = true
				continue
			}
			ops = append(ops, "!"+op.Ref.Name)
		}
		if changed {
			plan.SetNamedMDOps(nm, ops)
		}
	}
}

// fixRegisteredKernels keeps in !sycl_registered_kernels only the
// {name, mangled name} pairs whose function the part writes.
func (p *Part) fixRegisteredKernels(plan *llvmir.Plan) {
	nm := p.s.md.registered
	if nm == nil || nm.Named == nil || len(nm.Named.Ops) == 0 {
		return
	}
	list := nm.Named.Ops[0].Target()
	if list == nil {
		return
	}
	var keep []string
	changed := len(nm.Named.Ops) != 1
	for i := range list.Ops {
		op := &list.Ops[i]
		pair := op.Target()
		if pair == nil || len(pair.Ops) != 2 {
			changed = true
			continue
		}
		if op.Kind != llvmir.MDRef {
			return // an inline pair cannot be re-listed by reference
		}
		mangled := &pair.Ops[1]
		if f := p.s.M.Global(mangled.Str); mangled.Kind != llvmir.MDString || f == nil || f.Func == nil || p.st[f.Index] == stNone {
			changed = true
			continue
		}
		keep = append(keep, "!"+op.Ref.Name)
	}
	if !changed {
		return
	}
	n := plan.NewMD("!{" + strings.Join(keep, ", ") + "}")
	plan.SetNamedMDOps(nm, []string{"!" + strconv.Itoa(n)})
}

// nullDroppedRefs rewrites the metadata nodes that refer to global values
// the part does not write, as LLVM does to metadata when the value it
// refers to is deleted: each such operand (of a tuple, an inline node or a
// specialized node's field, such as DITemplateValueParameter's value)
// becomes null, and a node whose own operand changed becomes distinct.
func (p *Part) nullDroppedRefs(plan *llvmir.Plan) {
	m := p.s.M
	for _, e := range p.s.md.withGlobals {
		dropped := false
		for _, g := range e.Globals {
			if p.st[g.Index] == stNone {
				dropped = true
				break
			}
		}
		if !dropped || e.Node == nil {
			continue
		}
		var b strings.Builder
		pos, own := e.Off, false
		for _, u := range m.MDValueUses(e) {
			gone := false
			for _, g := range u.Globals {
				if p.st[g.Index] == stNone {
					gone = true
				}
			}
			if !gone {
				continue
			}
			b.Write(m.Src[pos:u.Start])
			b.WriteString("null")
			pos = u.End
			own = own || !u.Nested
		}
		if pos == e.Off {
			continue
		}
		b.Write(m.Src[pos : e.Off+len(e.Text)])
		text := b.String()
		if own && !e.Node.Distinct {
			eq := strings.IndexByte(text, '=')
			text = text[:eq+1] + " distinct" + text[eq+1:]
		}
		plan.ReplaceText(e, text)
	}
}

// aliasDeclaration is the declaration CloneModule makes for an alias it
// does not copy: a function declaration for a function-typed alias, an
// external global otherwise.
func aliasDeclaration(e *llvmir.Entity) string {
	t := e.Alias.Type
	if t == nil || e.Alias.IFunc {
		return ""
	}
	name := "@" + quoteName(e.Name)
	if t.Kind == llvmir.FuncType {
		params := make([]string, 0, len(t.Fields)+1)
		for _, f := range t.Fields {
			params = append(params, f.String())
		}
		if t.VarArg {
			params = append(params, "...")
		}
		return "declare " + t.Ret.String() + " " + name + "(" + strings.Join(params, ", ") + ")"
	}
	as := ""
	if e.Alias.AddrSpace != 0 {
		as = " addrspace(" + strconv.Itoa(e.Alias.AddrSpace) + ")"
	}
	return name + " = external" + as + " global " + t.String()
}

// quoteName writes a global's name as LLVM does: bare when it is made of
// letters, digits and "-$._", quoted (with \XX escapes) otherwise.
func quoteName(name string) string {
	if name != "" && (name[0] < '0' || name[0] > '9') {
		bare := true
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !(isFieldChar(c) || c == '-' || c == '$' || c == '.') {
				bare = false
				break
			}
		}
		if bare {
			return name
		}
	}
	return quoteMDString(name)
}

// quoteMDString quotes s as LLVM prints strings: printable ASCII except
// '"' and '\' as is, everything else as \XX.
func quoteMDString(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			b.WriteByte(c)
		} else {
			b.WriteByte('\\')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteByte('"')
	return b.String()
}
