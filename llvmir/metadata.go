package llvmir

import "strconv"

// Attachment is a metadata attachment "!kind !N" (or an inline node) of a
// function, global variable or instruction.
type Attachment struct {
	Kind string  // without '!': "sycl_used_aspects", "reqd_work_group_size", "dbg", …
	Ref  *Entity // the numbered node !N, nil for an inline node
	Node *MDNode // the node (Ref.Node for a numbered one)

	refID int32 // !N before resolution, -1 for an inline node
	at    int32 // where an inline node's text starts
}

// MDNode is a metadata node: a tuple !{…} or a specialized node
// !DIxxx(…).
type MDNode struct {
	Distinct bool
	// Special is the specialized node's name ("DILocation", …); "" for a
	// tuple.
	Special string
	// Ops is a tuple's operands; for a specialized node, the metadata it
	// references are listed in Ops as MDRef/MDString operands and Fields
	// holds the text inside its parentheses.
	Ops    []MDOperand
	Fields string
}

// MDOpKind says what a metadata operand is.
type MDOpKind uint8

// The operand kinds.
const (
	MDNull   MDOpKind = iota + 1 // null
	MDString                     // !"…"
	MDRef                        // !N
	MDValue                      // a typed value: i32 16, ptr @f, float 1.0
	MDInline                     // an inline node !{…} or !DIxxx(…)
)

// MDOperand is one operand of a metadata node.
type MDOperand struct {
	Kind MDOpKind
	Str  string  // MDString: the string unescaped
	Ref  *Entity // MDRef: the node
	Type *Type   // MDValue: the value's type
	// Value is MDValue's value text ("16", "@f", a constant expression).
	Value string
	// Global is the global value an MDValue refers to (through casts),
	// nil when none.
	Global *Entity
	Node   *MDNode // MDInline

	refID int32 // MDRef: N before resolution
	gtok  span  // MDValue: the global token found in the value
}

// Int returns an integer MDValue operand's value.
func (o *MDOperand) Int() (int64, bool) {
	if o.Kind != MDValue || o.Type == nil || o.Type.Kind != IntType {
		return 0, false
	}
	switch o.Value {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	v, err := strconv.ParseInt(o.Value, 10, 64)
	if err != nil {
		u, err2 := strconv.ParseUint(o.Value, 10, 64)
		if err2 != nil {
			return 0, false
		}
		v = int64(u)
	}
	return v, true
}

// Target returns the node an MDRef or MDInline operand stands for, or nil.
func (o *MDOperand) Target() *MDNode {
	switch o.Kind {
	case MDRef:
		if o.Ref != nil {
			return o.Ref.Node
		}
	case MDInline:
		return o.Node
	}
	return nil
}

// NamedMD is named metadata "!name = !{!0, !1}".
type NamedMD struct {
	Ops []MDOperand
}

// Comdat is "$name = comdat <selection>".
type Comdat struct {
	Selection string // any, exactmatch, largest, nodeduplicate, samesize
}

// MDGlobals returns the global values a metadata node or named metadata
// reaches through its operands and the nodes they reference, transitively,
// each once, in order of discovery.
func (m *Module) MDGlobals(e *Entity) []*Entity {
	var out []*Entity
	seenMD := map[*Entity]bool{e: true}
	seenG := map[*Entity]bool{}
	work := []*Entity{e}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, g := range n.Globals {
			if !seenG[g] {
				seenG[g] = true
				out = append(out, g)
			}
		}
		for _, r := range n.Metadata {
			if !seenMD[r] {
				seenMD[r] = true
				work = append(work, r)
			}
		}
	}
	return out
}

// Attachment returns the metadata node attached to a function or global
// variable under kind ("sycl_used_aspects" for !sycl_used_aspects), or nil.
func (e *Entity) Attachment(kind string) *MDNode {
	var as []Attachment
	switch {
	case e.Func != nil:
		as = e.Func.Attachments
	case e.Var != nil:
		as = e.Var.Attachments
	}
	for i := range as {
		if as[i].Kind == kind {
			return as[i].Node
		}
	}
	return nil
}
