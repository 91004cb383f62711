package llvmir

import "math/big"

// ConstKind says what a constant is.
type ConstKind uint8

// The constant kinds.
const (
	ConstInt      ConstKind = iota + 1 // 42, -1, true, false
	ConstFloat                         // 1.5, 2.000000e+00, 0x3FF0000000000000, 0xH3C00, 0xR…, 0xK…, 0xL…, 0xM…
	ConstNull                          // null
	ConstNone                          // none (token)
	ConstUndef                         // undef
	ConstPoison                        // poison
	ConstZero                          // zeroinitializer
	ConstArray                         // [T v, …]
	ConstVector                        // <T v, …>
	ConstStruct                        // { T v, … } or <{ … }>
	ConstString                        // c"…"
	ConstGlobal                        // @g
	ConstExpr                          // getelementptr (…), bitcast (… to …), …
	ConstOther                         // blockaddress, dso_local_equivalent, no_cfi, asm, …: text only
	ConstMetadata                      // a metadata operand: !N, !"…", !{…}, !DIxxx(…), or a wrapped value such as i32 0
)

// Const is a parsed constant of a known type.
type Const struct {
	Kind ConstKind
	Type *Type
	// Text is the constant's source text (without its type).
	Text string
	// Int is a ConstInt's value as written (true is 1, false 0).
	Int *big.Int
	// Elems is an aggregate's or vector's elements.
	Elems []*Const
	// Bytes is a ConstString's bytes with escapes decoded.
	Bytes []byte
	// Global is the global value of a ConstGlobal.
	Global *Entity
	// GlobalName is the referenced name when the global is not (yet)
	// known to the module.
	GlobalName string
	// Op is a ConstExpr's opcode ("getelementptr", "bitcast",
	// "addrspacecast", "ptrtoint", "inttoptr", "add", …); SrcType is
	// getelementptr's source element type; Ops are its operands. A
	// ConstMetadata wrapping a value (metadata ptr @g) holds it in Ops.
	Op      string
	SrcType *Type
	Ops     []*Const

	gtok span // ConstGlobal: the @name token
}

// PointsTo returns the global value a constant refers to, looking through
// casts, getelementptr and other constant expressions (the first global
// operand found); nil when there is none.
func (c *Const) PointsTo() *Entity {
	if c == nil {
		return nil
	}
	switch c.Kind {
	case ConstGlobal:
		return c.Global
	case ConstExpr, ConstMetadata:
		for _, o := range c.Ops {
			if g := o.PointsTo(); g != nil {
				return g
			}
		}
	}
	return nil
}
