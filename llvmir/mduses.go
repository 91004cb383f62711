package llvmir

// MDValueUse is a metadata operand that is a value naming global values:
// an operand of a tuple ("ptr @g" in !{ptr @g, !"x"}) or the value of a
// specialized node's field ("i32* @g" in
// !DITemplateValueParameter(…, value: i32* @g)), at any nesting depth.
type MDValueUse struct {
	// Start and End delimit the operand's text (its type and value, or the
	// field's value) in the module's source.
	Start, End int
	// Globals are the global values the operand names.
	Globals []*Entity
	// Nested is set when the operand belongs to an inline node inside the
	// entity rather than to the entity's own node.
	Nested bool
}

// MDValueUses returns the value operands of a numbered metadata node that
// name global values, in source order: what LLVM replaces with null when
// it deletes such a global.
func (m *Module) MDValueUses(e *Entity) []MDValueUse {
	if e.Kind != KindMDNode || len(e.Globals) == 0 {
		return nil
	}
	sc := mdUseScanner{m: m, src: m.Src, end: e.Off + len(e.Text)}
	i := e.Off
	for i < sc.end && sc.src[i] != '=' {
		i++
	}
	for i++; i < sc.end; i++ {
		i = sc.step(i)
	}
	return sc.out
}

// mdUseScanner walks a metadata node's text for MDValueUses. Each frame
// is an open bracket; a container is a node (!{ or !Name( ), whose
// operands the uses are.
type mdUseScanner struct {
	m          *Module
	src        []byte
	end        int
	stack      []mdFrame
	containers int // the containers on the stack
	out        []MDValueUse
}

type mdFrame struct {
	container bool
	opStart   int
	globals   []*Entity
}

// step reads the text at i and returns where it stopped (the next step
// starts after it).
func (sc *mdUseScanner) step(i int) int {
	src, end := sc.src, sc.end
	switch c := src[i]; c {
	case ';':
		for i < end && src[i] != '\n' {
			i++
		}
	case '"':
		i++
		for i < end && src[i] != '"' {
			i++
		}
	case '!':
		return sc.node(i)
	case '(', '[', '{', '<':
		sc.stack = append(sc.stack, mdFrame{})
	case ')', ']', '}', '>':
		if len(sc.stack) == 0 {
			return i
		}
		if f := &sc.stack[len(sc.stack)-1]; f.container {
			sc.finish(f, i)
			sc.containers--
		}
		sc.stack = sc.stack[:len(sc.stack)-1]
	case ',':
		if n := len(sc.stack); n > 0 && sc.stack[n-1].container {
			sc.finish(&sc.stack[n-1], i)
		}
	case ':':
		// A specialized node's field name ends: its value follows.
		if n := len(sc.stack); n > 0 && sc.stack[n-1].container {
			sc.stack[n-1].opStart = i + 1
		}
	case '@':
		return sc.global(i)
	}
	return i
}

// node reads what follows a '!' at i: an inline node opens a container.
func (sc *mdUseScanner) node(i int) int {
	src, end := sc.src, sc.end
	switch {
	case i+1 < end && src[i+1] == '{':
		i++
		sc.stack = append(sc.stack, mdFrame{container: true, opStart: i + 1})
		sc.containers++
	case i+1 < end && isLetter(src[i+1]):
		j := i + 1
		for j < end && (isIdent(src[j]) || src[j] == '\\') {
			j++
		}
		i = j - 1
		if j < end && src[j] == '(' {
			sc.stack = append(sc.stack, mdFrame{container: true, opStart: j + 1})
			sc.containers++
			i = j
		}
	}
	return i
}

// global reads the global value named at i and adds it to the innermost
// container's operand.
func (sc *mdUseScanner) global(i int) int {
	src, end := sc.src, sc.end
	j := i + 1
	if j < end && src[j] == '"' {
		j++
		for j < end && src[j] != '"' {
			j++
		}
		j++
	} else {
		for j < end && (isIdent(src[j]) || src[j] == '\\') {
			j++
		}
	}
	for k := len(sc.stack) - 1; k >= 0; k-- {
		if f := &sc.stack[k]; f.container {
			if g := lookupGlobalName(sc.m, src[i+1:min(j, end)]); g != nil {
				f.globals = append(f.globals, g)
			}
			break
		}
	}
	return j - 1
}

// finish ends the operand of the container f at at.
func (sc *mdUseScanner) finish(f *mdFrame, at int) {
	if len(f.globals) > 0 {
		s, t := f.opStart, at
		for s < t && isSpace(sc.src[s]) {
			s++
		}
		for t > s && isSpace(sc.src[t-1]) {
			t--
		}
		sc.out = append(sc.out, MDValueUse{Start: s, End: t, Globals: f.globals, Nested: sc.containers > 1})
	}
	f.globals = nil
	f.opStart = at + 1
}
