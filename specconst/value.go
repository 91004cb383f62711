package specconst

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// value is a constant as LLVM holds it after parsing: scalars reduced to
// their bits, aggregates to their elements, with LLVM's uniquing rules
// applied when printed (an aggregate of zeros is zeroinitializer, of undefs
// undef). The lowering reads default values through it, prints them the
// way LLVM's writer does and lays them out in memory.
type value struct {
	t    *llvmir.Type
	kind valueKind
	// bits is a scalar's value: an integer's low t.Bits bits, a float's
	// IEEE encoding in its own width.
	bits  uint64
	elems []*value
	// text is the source text of a constant the lowering does not look
	// into (global addresses, constant expressions).
	text string
	// canon caches an aggregate's canonical form.
	canon *value
	// window, when set, makes the value a view of the bytes of another
	// default value from offset bits on (see lowering.locate): elements
	// are found by offset, not by index.
	window *value
	// zeroPad marks a padding element found by offset: passed to the
	// composite as zeroinitializer.
	zeroPad bool
}

type valueKind uint8

const (
	vInt valueKind = iota + 1
	vFloat
	vZero // zeroinitializer, null, or a zero scalar written as such
	vUndef
	vPoison
	vAgg   // array, vector or struct with elements
	vOther // printed as written
)

// fromConst converts a parsed constant.
func fromConst(c *llvmir.Const) (*value, error) {
	v := &value{t: c.Type}
	switch c.Kind {
	case llvmir.ConstInt:
		if c.Type.Kind != llvmir.IntType || c.Type.Bits > 64 {
			return nil, fmt.Errorf("unsupported integer constant %s %s", c.Type, c.Text)
		}
		v.kind = vInt
		v.bits = truncBits(c.Int, c.Type.Bits)
	case llvmir.ConstFloat:
		b, err := floatBits(c.Type, c.Text)
		if err != nil {
			return nil, err
		}
		v.kind, v.bits = vFloat, b
	case llvmir.ConstNull, llvmir.ConstZero:
		v.kind = vZero
	case llvmir.ConstUndef:
		v.kind = vUndef
	case llvmir.ConstPoison:
		v.kind = vPoison
	case llvmir.ConstArray, llvmir.ConstVector, llvmir.ConstStruct:
		v.kind = vAgg
		for _, e := range c.Elems {
			ev, err := fromConst(e)
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, ev)
		}
	case llvmir.ConstString:
		v.kind = vAgg
		for _, b := range c.Bytes {
			v.elems = append(v.elems, &value{t: c.Type.Elem, kind: vInt, bits: uint64(b)})
		}
	default:
		v.kind, v.text = vOther, c.Text
	}
	return v, nil
}

// truncBits returns the low n bits of x (two's complement for negatives).
func truncBits(x *big.Int, n uint32) uint64 {
	if x == nil {
		return 0
	}
	mask := new(big.Int).Lsh(big.NewInt(1), uint(n))
	mask.Sub(mask, big.NewInt(1))
	y := new(big.Int).And(x, mask) // big.Int And uses two's complement for negatives
	return y.Uint64()
}

// zeroOf returns the zero value of t.
func zeroOf(t *llvmir.Type) *value { return &value{t: t, kind: vZero} }

// elem returns element i of an aggregate value (getAggregateElement).
func (v *value) elem(i int) *value {
	var et *llvmir.Type
	switch v.t.Kind {
	case llvmir.StructType:
		et = v.t.Fields[i]
	default:
		et = v.t.Elem
	}
	switch v.kind {
	case vAgg:
		return v.elems[i]
	case vUndef, vPoison:
		return &value{t: et, kind: v.kind}
	}
	return zeroOf(et)
}

// numElems returns the number of elements of an aggregate type.
func numElems(t *llvmir.Type) int {
	if t.Kind == llvmir.StructType {
		return len(t.Fields)
	}
	return int(t.Len)
}

// isAggregate reports whether t is a struct, array or vector.
func isAggregate(t *llvmir.Type) bool {
	return t.Kind == llvmir.StructType || t.Kind == llvmir.ArrayType || t.Kind == llvmir.VectorType
}

// isNull reports whether v is LLVM's null value of its type (+0.0 for
// floats; -0.0 is not).
func (v *value) isNull() bool {
	switch v.kind {
	case vZero:
		return true
	case vInt, vFloat:
		return v.bits == 0
	case vAgg:
		for _, e := range v.elems {
			if !e.isNull() {
				return false
			}
		}
		return true
	}
	return false
}

// isUndefLike reports whether v is undef or poison (an UndefValue).
func (v *value) isUndefLike() bool { return v.kind == vUndef || v.kind == vPoison }

// canonical returns v as LLVM keeps it: an aggregate of null elements is
// zeroinitializer, of poison elements poison, of undef (and poison)
// elements undef. It is computed once per value, from its elements'
// canonical forms, so that printing and laying out a value cost its size.
func (v *value) canonical() *value {
	if v.kind != vAgg {
		return v
	}
	if v.canon != nil {
		return v.canon
	}
	allNull, allPoison, allUndef := true, true, true
	for _, e := range v.elems {
		e = e.canonical()
		// A canonical aggregate is not null: it would be zeroinitializer.
		if e.kind == vAgg || !e.isNull() {
			allNull = false
		}
		if e.kind != vPoison {
			allPoison = false
		}
		if !e.isUndefLike() {
			allUndef = false
		}
	}
	c := v
	switch {
	case allNull: // also an aggregate without elements
		c = zeroOf(v.t)
	case allPoison:
		c = &value{t: v.t, kind: vPoison}
	case allUndef:
		c = &value{t: v.t, kind: vUndef}
	}
	v.canon = c
	return c
}

// String returns the value (without its type) as LLVM's writer prints it.
func (v *value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

// typed returns "<type> <value>".
func (v *value) typed() string {
	if v.zeroPad {
		return v.t.String() + " zeroinitializer"
	}
	return v.t.String() + " " + v.String()
}

func (v *value) write(b *strings.Builder) {
	v = v.canonical()
	switch v.kind {
	case vInt:
		if v.t.Bits == 1 {
			if v.bits != 0 {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
			return
		}
		b.WriteString(strconv.FormatInt(signExtend(v.bits, v.t.Bits), 10))
	case vFloat:
		b.WriteString(formatFloat(v.t, v.bits))
	case vZero:
		b.WriteString(zeroText(v.t))
	case vUndef:
		b.WriteString("undef")
	case vPoison:
		b.WriteString("poison")
	case vOther:
		b.WriteString(v.text)
	case vAgg:
		switch v.t.Kind {
		case llvmir.ArrayType:
			if et := v.t.Elem; et.Kind == llvmir.IntType && et.Bits == 8 && allScalar(v.elems) {
				b.WriteString(`c"`)
				for _, e := range v.elems {
					c := byte(e.bits)
					if c >= 0x20 && c <= 0x7E && c != '\\' && c != '"' {
						b.WriteByte(c)
					} else {
						fmt.Fprintf(b, `\%02X`, c)
					}
				}
				b.WriteByte('"')
				return
			}
			b.WriteByte('[')
			writeElems(b, v.elems)
			b.WriteByte(']')
		case llvmir.VectorType:
			b.WriteByte('<')
			writeElems(b, v.elems)
			b.WriteByte('>')
		default:
			if v.t.Packed {
				b.WriteByte('<')
			}
			b.WriteString("{ ")
			writeElems(b, v.elems)
			b.WriteString(" }")
			if v.t.Packed {
				b.WriteByte('>')
			}
		}
	}
}

func writeElems(b *strings.Builder, es []*value) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.t.String())
		b.WriteByte(' ')
		e.write(b)
	}
}

// allScalar reports whether all values are plain integers (a c"…" string
// needs them all known).
func allScalar(es []*value) bool {
	for _, e := range es {
		if e.kind != vInt && e.kind != vZero {
			return false
		}
	}
	return true
}

// zeroText is how LLVM prints the null value of t.
func zeroText(t *llvmir.Type) string {
	switch t.Kind {
	case llvmir.IntType:
		if t.Bits == 1 {
			return "false"
		}
		return "0"
	case llvmir.HalfType, llvmir.BFloatType, llvmir.FloatType, llvmir.DoubleType:
		return formatFloat(t, 0)
	case llvmir.X86FP80Type:
		return "0xK00000000000000000000"
	case llvmir.FP128Type:
		return "0xL00000000000000000000000000000000"
	case llvmir.PPCFP128Type:
		return "0xM00000000000000000000000000000000"
	case llvmir.PtrType:
		return "null"
	case llvmir.TokenType:
		return "none"
	}
	return "zeroinitializer"
}

func signExtend(bits uint64, n uint32) int64 {
	if n >= 64 {
		return int64(bits)
	}
	s := 64 - n
	return int64(bits<<s) >> s
}

// floatBits parses a floating-point literal of type t into its encoding.
func floatBits(t *llvmir.Type, text string) (uint64, error) {
	bad := func() (uint64, error) {
		return 0, fmt.Errorf("unsupported %s constant %q", t, text)
	}
	switch {
	case strings.HasPrefix(text, "0xH") || strings.HasPrefix(text, "0xR"):
		if (text[2] == 'H') != (t.Kind == llvmir.HalfType) {
			return bad()
		}
		b, err := strconv.ParseUint(text[3:], 16, 16)
		if err != nil {
			return bad()
		}
		return b, nil
	case strings.HasPrefix(text, "0x") && len(text) > 2 && isHexDigits(text[2:]):
		d, err := strconv.ParseUint(text[2:], 16, 64)
		if err != nil {
			return bad()
		}
		return fromDouble(t, math.Float64frombits(d))
	case strings.HasPrefix(text, "0x"):
		return bad()
	}
	d, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return bad()
	}
	return fromDouble(t, d)
}

func isHexDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// fromDouble encodes d in t's format.
func fromDouble(t *llvmir.Type, d float64) (uint64, error) {
	switch t.Kind {
	case llvmir.DoubleType:
		return math.Float64bits(d), nil
	case llvmir.FloatType:
		return uint64(math.Float32bits(float32(d))), nil
	case llvmir.HalfType:
		return uint64(float32ToHalf(float32(d))), nil
	case llvmir.BFloatType:
		f := math.Float32bits(float32(d))
		// Round to nearest even on the dropped 16 bits.
		f += 0x7FFF + (f>>16)&1
		return uint64(f >> 16), nil
	}
	return 0, fmt.Errorf("unsupported floating-point type %s", t)
}

// toDouble decodes a float or double encoding.
func toDouble(t *llvmir.Type, bits uint64) float64 {
	if t.Kind == llvmir.FloatType {
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// formatFloat prints a float the way LLVM's writer does: half and bfloat
// in hex (0xH…, 0xR…); float and double in "%e" form with six decimals
// when that reads back to the same double, otherwise as the hex of the
// value converted to double.
func formatFloat(t *llvmir.Type, bits uint64) string {
	switch t.Kind {
	case llvmir.HalfType:
		return fmt.Sprintf("0xH%04X", bits)
	case llvmir.BFloatType:
		return fmt.Sprintf("0xR%04X", bits)
	}
	d := toDouble(t, bits)
	if !math.IsInf(d, 0) && !math.IsNaN(d) {
		s := strconv.FormatFloat(d, 'e', 6, 64)
		if back, err := strconv.ParseFloat(s, 64); err == nil && back == d {
			return s
		}
	}
	return fmt.Sprintf("0x%016X", math.Float64bits(d))
}

// float32ToHalf converts to IEEE half precision, rounding to nearest even.
func float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xFF)
	mant := b & 0x7FFFFF
	switch {
	case exp == 0xFF: // inf or NaN
		if mant != 0 {
			return sign | 0x7E00
		}
		return sign | 0x7C00
	case exp-127 > 15: // overflow
		return sign | 0x7C00
	case exp-127 >= -14: // normal
		h := uint32(exp-127+15)<<10 | mant>>13
		rest := mant & 0x1FFF
		if rest > 0x1000 || rest == 0x1000 && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	case exp-127 >= -25: // subnormal
		mant |= 0x800000
		shift := uint(-14-(exp-127)) + 13
		h := mant >> shift
		rest := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rest > half || rest == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	return sign
}
