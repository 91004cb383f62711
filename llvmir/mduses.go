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
	src := m.Src
	end := e.Off + len(e.Text)
	i := e.Off
	for i < end && src[i] != '=' {
		i++
	}
	// Each frame is an open bracket; a container is a node (!{ or
	// !Name( ), whose operands the uses are.
	type frame struct {
		container bool
		opStart   int
		globals   []*Entity
	}
	var stack []frame
	containers := 0
	var out []MDValueUse
	top := func() *frame {
		for k := len(stack) - 1; k >= 0; k-- {
			if stack[k].container {
				return &stack[k]
			}
		}
		return nil
	}
	finish := func(f *frame, at int) {
		if len(f.globals) > 0 {
			s, t := f.opStart, at
			for s < t && isSpace(src[s]) {
				s++
			}
			for t > s && isSpace(src[t-1]) {
				t--
			}
			out = append(out, MDValueUse{Start: s, End: t, Globals: f.globals, Nested: containers > 1})
		}
		f.globals = nil
		f.opStart = at + 1
	}
	for i++; i < end; i++ {
		c := src[i]
		switch c {
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
			switch {
			case i+1 < end && src[i+1] == '{':
				i++
				stack = append(stack, frame{container: true, opStart: i + 1})
				containers++
			case i+1 < end && isLetter(src[i+1]):
				j := i + 1
				for j < end && (isIdent(src[j]) || src[j] == '\\') {
					j++
				}
				i = j - 1
				if j < end && src[j] == '(' {
					stack = append(stack, frame{container: true, opStart: j + 1})
					containers++
					i = j
				}
			}
		case '(', '[', '{', '<':
			stack = append(stack, frame{})
		case ')', ']', '}', '>':
			if len(stack) == 0 {
				continue
			}
			if f := &stack[len(stack)-1]; f.container {
				finish(f, i)
				containers--
			}
			stack = stack[:len(stack)-1]
		case ',':
			if n := len(stack); n > 0 && stack[n-1].container {
				finish(&stack[n-1], i)
			}
		case ':':
			// A specialized node's field name ends: its value follows.
			if n := len(stack); n > 0 && stack[n-1].container {
				stack[n-1].opStart = i + 1
			}
		case '@':
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
			if f := top(); f != nil {
				if g := lookupGlobalName(m, src[i+1:min(j, end)]); g != nil {
					f.globals = append(f.globals, g)
				}
			}
			i = j - 1
		}
	}
	return out
}
