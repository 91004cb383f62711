package llvmir

import "math/big"

// exprOps are the constant-expression opcodes (those still in LLVM 19 and
// the older ones LLVM 15-era IR may hold).
var exprOps = map[string]bool{
	"getelementptr": true, "bitcast": true, "addrspacecast": true, "ptrtoint": true, "inttoptr": true,
	"trunc": true, "zext": true, "sext": true, "fptrunc": true, "fpext": true, "fptoui": true,
	"fptosi": true, "uitofp": true, "sitofp": true, "add": true, "sub": true, "mul": true, "shl": true,
	"lshr": true, "ashr": true, "and": true, "or": true, "xor": true, "udiv": true, "sdiv": true,
	"urem": true, "srem": true, "fadd": true, "fsub": true, "fmul": true, "fdiv": true, "frem": true,
	"fneg": true, "icmp": true, "fcmp": true, "select": true, "extractelement": true,
	"insertelement": true, "shufflevector": true, "extractvalue": true, "insertvalue": true,
}

// castOps are the cast expressions: "op (T v to T2)".
var castOps = map[string]bool{
	"bitcast": true, "addrspacecast": true, "ptrtoint": true, "inttoptr": true, "trunc": true,
	"zext": true, "sext": true, "fptrunc": true, "fpext": true, "fptoui": true, "fptosi": true,
	"uitofp": true, "sitofp": true,
}

// exprFlags may follow a constant-expression opcode.
var exprFlags = map[string]bool{
	"inbounds": true, "nuw": true, "nsw": true, "exact": true, "nusw": true, "disjoint": true,
	"nneg": true, "samesign": true,
}

// skipValue consumes one constant or value without building it.
func (p *parser) skipValue() {
	for {
		switch p.tok.kind {
		case tPunct:
			switch p.src[p.tok.start] {
			case '(', '[', '{', '<':
				p.skipBalanced()
				return
			}
			p.failTok("expected a value")
		case tEOF:
			p.failTok("expected a value")
		case tIdent:
			w := p.text(p.tok)
			p.next()
			switch {
			case w == "dso_local_equivalent" || w == "no_cfi":
				continue
			case w == "inrange" && p.isPunct('('):
				p.skipBalanced()
				continue
			case w == "asm":
				for p.tok.kind == tIdent {
					p.next()
				}
				p.expectString()
				p.expectPunct(',')
				p.expectString()
				return
			}
			if p.isPunct('(') {
				p.skipBalanced()
				return
			}
			if p.tok.kind == tIdent && (exprFlags[p.text(p.tok)] || exprOps[w]) {
				continue
			}
			return
		default:
			p.next()
			return
		}
	}
}

// parseTypedValue parses "<type> <value>".
func (p *parser) parseTypedValue() *Const {
	t := p.parseType()
	return p.parseValue(t)
}

// parseValue parses a constant (or a local value, kept as ConstOther) of
// type t; t may be nil when unknown.
func (p *parser) parseValue(t *Type) *Const {
	start := p.tok.start
	c := &Const{Type: t}
	d := p.depth
	p.enter("constant")
	if t != nil && t.Kind == MetadataType {
		// Metadata as a value: "metadata !N", "metadata i32 0",
		// "metadata ptr %x", "metadata !DIArgList(…)".
		c.Kind = ConstMetadata
		if _, v := p.parseMDOp(); v != nil {
			c.Ops = []*Const{v}
		}
		c.Text = str(p.src[start:p.prevEnd])
		p.depth = d
		return c
	}
	tok := p.tok
	switch tok.kind {
	case tInt:
		c.Kind = ConstInt
		if t != nil && t.IsFloat() {
			c.Kind = ConstFloat
		} else {
			c.Int = new(big.Int)
			if _, ok := c.Int.SetString(p.text(tok), 10); !ok {
				p.fail(tok.start, "invalid integer")
			}
		}
		p.next()
	case tFloat:
		c.Kind = ConstFloat
		p.next()
	case tCString:
		c.Kind = ConstString
		b := p.bytes(tok)
		c.Bytes = unescapeBytes(b[2 : len(b)-1])
		p.next()
	case tGlobal, tGlobalN:
		c.Kind = ConstGlobal
		c.gtok = span{int32(tok.start), int32(tok.end)}
		p.next()
	case tLocal, tLocalN:
		c.Kind = ConstOther
		p.next()
	case tMetaID, tMetaStr, tExcl, tMetaVar:
		c.Kind = ConstMetadata
		p.parseMDOperand()
	case tPunct:
		switch p.src[tok.start] {
		case '[':
			c.Kind = ConstArray
			p.next()
			c.Elems = p.parseElems(']')
		case '{':
			c.Kind = ConstStruct
			p.next()
			c.Elems = p.parseElems('}')
		case '<':
			p.next()
			if p.acceptPunct('{') {
				c.Kind = ConstStruct
				c.Elems = p.parseElems('}')
				p.expectPunct('>')
			} else {
				c.Kind = ConstVector
				c.Elems = p.parseElems('>')
			}
		default:
			p.failTok("expected a value")
		}
	case tIdent:
		p.parseIdentValue(c)
	default:
		p.failTok("expected a value")
	}
	c.Text = str(p.src[start:p.prevEnd])
	p.depth = d
	return c
}

func (p *parser) parseElems(closer byte) []*Const {
	var out []*Const
	for !p.isPunct(closer) {
		out = append(out, p.parseTypedValue())
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(closer)
	return out
}

func (p *parser) parseIdentValue(c *Const) {
	tok := p.tok
	w := p.text(tok)
	switch w {
	case "true", "false":
		c.Kind, c.Int = ConstInt, big.NewInt(0)
		if w == "true" {
			c.Int.SetInt64(1)
		}
		p.next()
		return
	case "null":
		c.Kind = ConstNull
	case "none":
		c.Kind = ConstNone
	case "undef":
		c.Kind = ConstUndef
	case "poison":
		c.Kind = ConstPoison
	case "zeroinitializer":
		c.Kind = ConstZero
	case "splat":
		p.next()
		p.expectPunct('(')
		c.Kind, c.Op = ConstExpr, "splat"
		c.Ops = []*Const{p.parseTypedValue()}
		p.expectPunct(')')
		return
	case "blockaddress", "dso_local_equivalent", "no_cfi", "asm":
		c.Kind = ConstOther
		p.skipValue()
		return
	default:
		if len(w) > 3 && (w[0] == 's' || w[0] == 'u') && w[1] == '0' && w[2] == 'x' {
			c.Kind, c.Int = ConstInt, new(big.Int)
			if _, ok := c.Int.SetString(w[3:], 16); !ok {
				p.fail(tok.start, "invalid hexadecimal integer")
			}
			if w[0] == 's' && c.Type != nil && c.Type.Kind == IntType {
				bits := uint(c.Type.Bits)
				if c.Int.Bit(int(bits)-1) == 1 {
					c.Int.Sub(c.Int, new(big.Int).Lsh(big.NewInt(1), bits))
				}
			}
			p.next()
			return
		}
		if exprOps[w] {
			p.parseExpr(c)
			return
		}
		p.failTok("expected a value")
	}
	p.next()
}

// parseExpr parses a constant expression: op [flags] [pred] ( operands ).
func (p *parser) parseExpr(c *Const) {
	c.Kind, c.Op = ConstExpr, p.text(p.tok)
	p.next()
	for p.tok.kind == tIdent {
		w := p.text(p.tok)
		if exprFlags[w] {
			p.next()
			continue
		}
		if w == "inrange" {
			p.next()
			if p.isPunct('(') {
				p.skipBalanced()
			}
			continue
		}
		if c.Op == "icmp" || c.Op == "fcmp" {
			p.next() // predicate
			continue
		}
		break
	}
	p.expectPunct('(')
	first := true
	for !p.isPunct(')') {
		if p.tok.kind == tInt && !first {
			// extractvalue/insertvalue indices
			p.next()
		} else {
			p.acceptIdent("inrange")
			t := p.parseType()
			if first && c.Op == "getelementptr" && p.isPunct(',') {
				c.SrcType = t
			} else {
				c.Ops = append(c.Ops, p.parseValue(t))
				if castOps[c.Op] {
					p.expectIdent("to")
					p.parseType()
				}
			}
		}
		first = false
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct(')')
}

// globalTok returns the first global token a constant refers to through
// expressions (an empty span when none).
func (c *Const) globalTok() span {
	if c == nil {
		return span{}
	}
	switch c.Kind {
	case ConstGlobal:
		return c.gtok
	case ConstExpr, ConstMetadata:
		for _, o := range c.Ops {
			if s := o.globalTok(); s.End > 0 {
				return s
			}
		}
	}
	return span{}
}

// ---- metadata ----

// parseMDOperand parses one metadata operand.
func (p *parser) parseMDOperand() MDOperand {
	op, _ := p.parseMDOp()
	return op
}

// parseMDOp parses one metadata operand and returns, for a value operand
// (i32 16, ptr @f), the value's constant too.
func (p *parser) parseMDOp() (MDOperand, *Const) {
	tok := p.tok
	switch tok.kind {
	case tMetaStr:
		p.next()
		return MDOperand{Kind: MDString, Str: p.stringVal(tok)}, nil
	case tMetaID:
		p.next()
		return MDOperand{Kind: MDRef, refID: int32(p.number(tok))}, nil
	case tExcl, tMetaVar:
		return MDOperand{Kind: MDInline, Node: p.parseInlineNode()}, nil
	case tIdent:
		if p.text(tok) == "null" {
			p.next()
			return MDOperand{Kind: MDNull}, nil
		}
	}
	t := p.parseType()
	start := p.tok.start
	c := p.parseValue(t)
	return MDOperand{Kind: MDValue, Type: t, Value: str(p.src[start:p.prevEnd]), gtok: c.globalTok()}, c
}

// parseInlineNode parses "!{…}" or "!DIxxx(…)" (optionally "distinct"
// was consumed by the caller).
func (p *parser) parseInlineNode() *MDNode {
	d := p.depth
	p.enter("metadata")
	n := &MDNode{}
	if p.tok.kind == tMetaVar {
		n.Special = p.name(p.tok)
		p.next()
		if !p.isPunct('(') {
			p.failTok("expected '(' after !" + n.Special)
		}
		open := p.tok.end
		depth := 0
		for {
			switch p.tok.kind {
			case tEOF:
				p.failTok("expected ')'")
			case tMetaID:
				n.Ops = append(n.Ops, MDOperand{Kind: MDRef, refID: int32(p.number(p.tok))})
			case tPunct:
				switch p.src[p.tok.start] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			p.next()
			if depth == 0 {
				break
			}
		}
		n.Fields = trimSpace(str(p.src[open : p.prevEnd-1]))
		p.depth = d
		return n
	}
	if p.tok.kind != tExcl {
		p.failTok("expected a metadata node")
	}
	p.next()
	p.expectPunct('{')
	for !p.isPunct('}') {
		n.Ops = append(n.Ops, p.parseMDOperand())
		if !p.acceptPunct(',') {
			break
		}
	}
	p.expectPunct('}')
	p.depth = d
	return n
}

func (p *parser) parseNamedMD(e *Entity) {
	e.Kind, e.Name = KindNamedMD, p.name(p.tok)
	at := p.tok.start
	p.next()
	p.expectPunct('=')
	if p.tok.kind != tExcl {
		p.failTok("expected '!{'")
	}
	refsFrom := p.tok.start
	n := p.parseInlineNode()
	e.Named = &NamedMD{Ops: n.Ops}
	if p.m.namedMDs[e.Name] != nil {
		p.fail(at, "redefinition of named metadata '!"+e.Name+"'")
	}
	p.m.namedMDs[e.Name] = e
	p.scan(refsFrom, p.prevEnd, nil)
}

func (p *parser) parseMDNodeEntity(e *Entity) {
	at := p.tok.start
	p.selfAt = at
	e.Kind, e.ID, e.Numbered = KindMDNode, p.number(p.tok), true
	e.Name = itoa(e.ID)
	p.next()
	p.expectPunct('=')
	refsFrom := p.tok.start
	distinct := p.acceptIdent("distinct")
	n := p.parseInlineNode()
	n.Distinct = distinct
	e.Node = n
	if p.m.mds[e.ID] != nil {
		p.fail(at, "redefinition of metadata '!"+e.Name+"'")
	}
	p.m.mds[e.ID] = e
	if e.ID > p.m.maxMD {
		p.m.maxMD = e.ID
	}
	p.scan(refsFrom, p.prevEnd, nil)
}
