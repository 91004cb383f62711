package llvmir

import (
	"strconv"
	"strings"
)

// resolve turns the references recorded during the parse into entity
// pointers, reporting undefined globals, metadata and comdats.
func (p *parser) resolve() {
	m := p.m
	for _, e := range m.Entities {
		stamp := int32(e.Index + 1)
		f := e.Func
		for _, r := range e.refs {
			g := p.lookupGlobal(int(r.start), int(r.end))
			if g == nil {
				name := str(p.src[r.start:r.end])
				if r.callee && strings.HasPrefix(name, "@llvm.") {
					// Declared by the call, as LLVM's parser declares an
					// intrinsic called without a declaration.
					if p.implicit == nil {
						p.implicit = map[string]bool{}
					}
					p.implicit[name] = true
					continue
				}
				p.addErr(p.errorAt(int(r.start), "use of undefined value '"+name+"'"))
				continue
			}
			if g.mark != stamp {
				g.mark = stamp
				e.Globals = append(e.Globals, g)
			}
			if f == nil || g.Kind == KindGlobalVar {
				continue
			}
			if r.callee {
				if g.mark2 != stamp {
					g.mark2 = stamp
					f.Callees = append(f.Callees, g)
				}
			} else if g.mark3 != stamp {
				g.mark3 = stamp
				f.AddressTaken = append(f.AddressTaken, g)
			}
		}
		for _, r := range e.mdRefs {
			n := m.mds[int(r.id)]
			if n == nil {
				p.addErr(p.errorAt(int(r.off), "use of undefined metadata '!"+strconv.Itoa(int(r.id))+"'"))
				continue
			}
			if n.mark != stamp {
				n.mark = stamp
				e.Metadata = append(e.Metadata, n)
			}
		}
		e.refs, e.mdRefs = nil, nil
		switch {
		case f != nil:
			for i := range f.Calls {
				c := &f.Calls[i]
				c.Callee = p.lookupSpan(c.calleeTok)
				c.CastCallee = p.lookupSpan(c.castTok)
				for j := range c.Args {
					c.Args[j].Points = p.lookupSpan(c.Args[j].pointsTok)
				}
			}
			p.resolveAttachments(f.Attachments)
			p.checkComdat(e, f.Comdat)
		case e.Var != nil:
			p.resolveAttachments(e.Var.Attachments)
			p.checkComdat(e, e.Var.Comdat)
		case e.Alias != nil:
			e.Alias.Points = p.lookupSpan(e.Alias.pointsTok)
		case e.Node != nil:
			p.resolveNode(e.Node)
		case e.Named != nil:
			p.resolveOps(e.Named.Ops)
		}
	}
}

func (p *parser) checkComdat(e *Entity, name string) {
	if name == "" {
		return
	}
	e.comdat = p.m.comdats[name]
	if e.comdat == nil {
		p.addErr(p.errorAt(e.Off, "use of undefined comdat '$"+name+"'"))
	}
}

func (p *parser) resolveAttachments(as []Attachment) {
	for i := range as {
		a := &as[i]
		if a.refID >= 0 && a.Node == nil {
			a.Ref = p.m.mds[int(a.refID)]
			if a.Ref != nil {
				a.Node = a.Ref.Node
			}
		} else if a.Node != nil {
			p.resolveNode(a.Node)
		}
	}
}

func (p *parser) resolveNode(n *MDNode) { p.resolveOps(n.Ops) }

func (p *parser) resolveOps(ops []MDOperand) {
	for i := range ops {
		o := &ops[i]
		switch o.Kind {
		case MDRef:
			o.Ref = p.m.mds[int(o.refID)]
		case MDValue:
			o.Global = p.lookupSpan(o.gtok)
		case MDInline:
			p.resolveNode(o.Node)
		}
	}
}

func (p *parser) lookupSpan(s span) *Entity {
	if s.End == 0 {
		return nil
	}
	return p.lookupGlobal(int(s.Start), int(s.End))
}

// lookupGlobal finds the global value named by the token src[start:end]
// ("@name", "@\"name\"" or "@N").
func (p *parser) lookupGlobal(start, end int) *Entity {
	return lookupGlobalName(p.m, p.src[start+1:end])
}

func lookupGlobalName(m *Module, b []byte) *Entity {
	if len(b) == 0 {
		return nil
	}
	if b[0] == '"' {
		return m.globals[unescape(b[1:len(b)-1])]
	}
	if isDigit(b[0]) {
		n, err := strconv.Atoi(str(b))
		if err != nil {
			return nil
		}
		return m.numbered[n]
	}
	if bytesHasByte(b, '\\') {
		return m.globals[unescape(b)]
	}
	return m.globals[string(b)]
}

func bytesHasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// implicitDeclarations returns the declarations of the intrinsics the
// module calls without declaring them, each with the type of its first
// call, one per line, in order of first call.
func (p *parser) implicitDeclarations() string {
	var b strings.Builder
	done := map[string]bool{}
	for _, e := range p.m.Entities {
		if e.Func == nil {
			continue
		}
		for i := range e.Func.Calls {
			c := &e.Func.Calls[i]
			if !p.implicit[c.CalleeText] || done[c.CalleeText] || c.FnType == nil || c.FnType.Kind != FuncType {
				continue
			}
			done[c.CalleeText] = true
			b.WriteString("declare " + c.FnType.Ret.String() + " " + c.CalleeText + "(")
			for j, t := range c.FnType.Fields {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(t.String())
			}
			if c.FnType.VarArg {
				if len(c.FnType.Fields) > 0 {
					b.WriteString(", ")
				}
				b.WriteString("...")
			}
			b.WriteString(")\n")
		}
	}
	return b.String()
}
