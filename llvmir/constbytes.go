package llvmir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// subParser returns a parser over text (not part of the module's source)
// that resolves names against the module. Positions in its errors are
// relative to text, named "<input>".
func (m *Module) subParser(text string) *parser {
	src := []byte(text)
	p := &parser{m: m, file: "<input>", src: src, lx: lexer{src: src, end: len(src)}, lines: new([]int)}
	return p
}

// run parses with f and turns a failure into an error.
func (p *parser) run(f func()) error {
	if err := p.guard(func() {
		p.reset(p.lx.pos)
		f()
	}); err != nil {
		return err
	}
	return nil
}

// ParseType parses a type written in the module's syntax ("i32",
// "%struct.A", "ptr addrspace(4)", "i8 addrspace(4)*"); named structs are
// the module's. Not safe for concurrent use with other parses of m (a
// mention of an unknown %name adds an opaque struct to the module).
func (m *Module) ParseType(text string) (*Type, error) {
	p := m.subParser(text)
	var t *Type
	err := p.run(func() {
		t = p.parseType()
		p.expectEOF()
	})
	return t, err
}

// ParseConst parses a constant of type t written in the module's syntax
// (the value only, without its type: "{ i32 1, float 2.0 }",
// "zeroinitializer", "c\"ab\\00\"", "getelementptr (…)").
func (m *Module) ParseConst(t *Type, text string) (*Const, error) {
	p := m.subParser(text)
	var c *Const
	err := p.run(func() {
		c = p.parseValue(t)
		p.expectEOF()
	})
	if err != nil {
		return nil, err
	}
	p.resolveConst(c)
	return c, nil
}

// Initializer parses the initializer of a global variable (nil for a
// declaration). Errors are located in the module's file.
func (m *Module) Initializer(e *Entity) (*Const, error) {
	if e.Var == nil {
		return nil, fmt.Errorf("%s: @%s is not a global variable", m.File, e.Name)
	}
	g := e.Var
	if g.Init == "" {
		return nil, nil
	}
	start := int(g.initAt.End) - len(g.Init)
	p := &parser{m: m, file: m.File, src: m.Src, lx: lexer{src: m.Src, pos: start, end: int(g.initAt.End)}, lines: &m.lines}
	var c *Const
	err := p.run(func() {
		c = p.parseValue(g.Type)
		p.expectEOF()
	})
	if err != nil {
		return nil, err
	}
	p.resolveConst(c)
	return c, nil
}

// resolveConst fills Global (or GlobalName) of the global constants in c.
func (p *parser) resolveConst(c *Const) {
	if c == nil {
		return
	}
	if c.Kind == ConstGlobal {
		b := p.src[c.gtok.Start+1 : c.gtok.End]
		c.Global = lookupGlobalName(p.m, b)
		if len(b) > 0 && b[0] == '"' {
			c.GlobalName = unescape(b[1 : len(b)-1])
		} else {
			c.GlobalName = unescape(b)
		}
	}
	for _, e := range c.Elems {
		p.resolveConst(e)
	}
	for _, o := range c.Ops {
		p.resolveConst(o)
	}
}

// Bytes returns the memory image of c (AllocSize bytes, in the layout's
// byte order) with padding zero-filled. undef and poison read as zero.
// Constants holding addresses (globals, expressions) have no bytes.
func (dl *DataLayout) Bytes(c *Const) ([]byte, error) {
	if c.Type == nil {
		return nil, errors.New("constant " + c.Text + " has no type")
	}
	n, err := dl.AllocSize(c.Type)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	if err := dl.put(buf, c.Type, c); err != nil {
		return nil, err
	}
	return buf, nil
}

// put writes c (of type t) at the start of buf.
func (dl *DataLayout) put(buf []byte, t *Type, c *Const) error {
	switch c.Kind {
	case ConstZero, ConstNull, ConstUndef, ConstPoison:
		return nil // already zero
	case ConstInt:
		if t.Kind != IntType {
			return fmt.Errorf("integer constant %s of type %s", c.Text, t)
		}
		size, _ := dl.StoreSize(t)
		dl.putInt(buf[:size], c.Int)
		return nil
	case ConstFloat:
		b, err := floatBytes(t, c.Text)
		if err != nil {
			return err
		}
		if dl.BigEndian {
			for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
				b[i], b[j] = b[j], b[i]
			}
		}
		copy(buf, b)
		return nil
	case ConstString:
		if t.Kind != ArrayType {
			return fmt.Errorf("string constant of type %s", t)
		}
		copy(buf, c.Bytes)
		return nil
	case ConstArray, ConstStruct, ConstVector:
		return dl.putAggregate(buf, t, c.Elems)
	case ConstExpr:
		if c.Op == "splat" && t.Kind == VectorType && len(c.Ops) == 1 {
			elems := make([]*Const, t.Len)
			for i := range elems {
				elems[i] = c.Ops[0]
			}
			return dl.putAggregate(buf, t, elems)
		}
	}
	return fmt.Errorf("constant %s has no byte representation", c.Text)
}

func (dl *DataLayout) putAggregate(buf []byte, t *Type, elems []*Const) error {
	switch t.Kind {
	case ArrayType:
		if uint64(len(elems)) != t.Len {
			return fmt.Errorf("array of %d elements given %d", t.Len, len(elems))
		}
		es, err := dl.AllocSize(t.Elem)
		if err != nil {
			return err
		}
		for i, e := range elems {
			if err := dl.put(buf[uint64(i)*es:], t.Elem, e); err != nil {
				return err
			}
		}
		return nil
	case StructType:
		l, err := dl.Layout(t)
		if err != nil {
			return err
		}
		if len(elems) != len(t.Fields) {
			return fmt.Errorf("struct of %d elements given %d", len(t.Fields), len(elems))
		}
		for i, e := range elems {
			if err := dl.put(buf[l.Offsets[i]:], t.Fields[i], e); err != nil {
				return err
			}
		}
		return nil
	case VectorType:
		if uint64(len(elems)) != t.Len {
			return fmt.Errorf("vector of %d elements given %d", t.Len, len(elems))
		}
		eb, err := dl.SizeInBits(t.Elem)
		if err != nil {
			return err
		}
		if eb%8 != 0 {
			// Bit-packed elements (i1 vectors), little-endian bit order.
			for i, e := range elems {
				if e.Kind == ConstInt && e.Int.Bit(0) == 1 {
					bit := uint64(i) * eb
					buf[bit/8] |= 1 << (bit % 8)
				} else if e.Kind != ConstInt && e.Kind != ConstZero && e.Kind != ConstUndef && e.Kind != ConstPoison {
					return fmt.Errorf("vector element %s has no byte representation", e.Text)
				}
			}
			return nil
		}
		for i, e := range elems {
			if err := dl.put(buf[uint64(i)*eb/8:], t.Elem, e); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("aggregate constant of type %s", t)
}

// putInt writes v as a two's-complement integer filling buf.
func (dl *DataLayout) putInt(buf []byte, v *big.Int) {
	x := new(big.Int).Set(v)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(len(buf))*8))
	}
	b := x.Bytes() // big-endian
	for i := 0; i < len(buf) && i < len(b); i++ {
		c := b[len(b)-1-i]
		if dl.BigEndian {
			buf[len(buf)-1-i] = c
		} else {
			buf[i] = c
		}
	}
}

// floatBytes converts a floating-point literal of type t into its
// little-endian memory bytes.
func floatBytes(t *Type, text string) ([]byte, error) {
	bad := func() ([]byte, error) {
		return nil, fmt.Errorf("invalid %s constant %s", t, text)
	}
	var hexKind byte
	var digits string
	if strings.HasPrefix(text, "0x") {
		digits = text[2:]
		if len(digits) > 0 && strings.IndexByte("KLMHR", digits[0]) >= 0 {
			hexKind, digits = digits[0], digits[1:]
		}
	}
	switch {
	case hexKind == 'H' || hexKind == 'R':
		if (hexKind == 'H') != (t.Kind == HalfType) && !(hexKind == 'R' && t.Kind == BFloatType) {
			return bad()
		}
		v, err := strconv.ParseUint(digits, 16, 16)
		if err != nil {
			return bad()
		}
		return binary.LittleEndian.AppendUint16(nil, uint16(v)), nil
	case hexKind == 'K', hexKind == 'L', hexKind == 'M':
		out, ok := wideFloatBytes(t, hexKind, digits)
		if !ok {
			return bad()
		}
		return out, nil
	}
	// A decimal literal or a 0x double bit pattern.
	var f float64
	if hexKind == 0 && digits != "" {
		v, err := strconv.ParseUint(digits, 16, 64)
		if err != nil {
			return bad()
		}
		f = math.Float64frombits(v)
	} else {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return bad()
		}
		f = v
		if t.Kind == FloatType {
			v32, err := strconv.ParseFloat(text, 32)
			if err != nil {
				return bad()
			}
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v32))), nil
		}
	}
	switch t.Kind {
	case DoubleType:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)), nil
	case FloatType:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(f))), nil
	case HalfType:
		return binary.LittleEndian.AppendUint16(nil, float64ToHalf(f)), nil
	case BFloatType:
		return binary.LittleEndian.AppendUint16(nil, float64ToBFloat(f)), nil
	case X86FP80Type:
		return float64ToX87(f), nil
	}
	return bad()
}

// wideFloatBytes converts the hex digits of an x86_fp80 (0xK), fp128
// (0xL) or ppc_fp128 (0xM) literal into its little-endian memory bytes;
// ok is false when they do not fit the type t.
func wideFloatBytes(t *Type, hexKind byte, digits string) (out []byte, ok bool) {
	want := map[byte]TypeKind{'K': X86FP80Type, 'L': FP128Type, 'M': PPCFP128Type}[hexKind]
	if t.Kind != want {
		return nil, false
	}
	v, ok := new(big.Int).SetString(digits, 16)
	if !ok {
		return nil, false
	}
	if hexKind == 'M' || hexKind == 'L' {
		// 0xL: the first 16 digits are the low 64 bits, the next 16 the
		// high ones. 0xM: two doubles, the first one stored first.
		if len(digits) != 32 {
			return nil, false
		}
		hi, err1 := strconv.ParseUint(digits[:16], 16, 64)
		lo, err2 := strconv.ParseUint(digits[16:], 16, 64)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		b := binary.LittleEndian.AppendUint64(nil, hi)
		return binary.LittleEndian.AppendUint64(b, lo), true
	}
	const n = 10 // x86_fp80's bytes
	be := v.FillBytes(make([]byte, n))
	out = make([]byte, n)
	for i := range be {
		out[i] = be[n-1-i]
	}
	return out, true
}

// float64ToHalf converts to IEEE binary16, rounding to nearest even.
func float64ToHalf(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	switch {
	case exp == 0x7ff:
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp == 0 && mant == 0:
		return sign
	}
	e := exp - 1023 + 15
	full := mant | 1<<52 // 53-bit significand
	var shift uint
	if e >= 1 {
		shift = 42
	} else {
		// Subnormal half: shift further.
		s := 42 + 1 - e
		if s > 63 {
			return sign
		}
		shift = uint(s)
		e = 0
	}
	m := full >> shift
	rem := full & (1<<shift - 1)
	half := uint64(1) << (shift - 1)
	if rem > half || (rem == half && m&1 == 1) {
		m++
	}
	if e >= 1 {
		if m >= 1<<11 { // mantissa overflow
			m >>= 1
			e++
		}
		if e >= 31 {
			return sign | 0x7c00
		}
		return sign | uint16(e)<<10 | uint16(m&0x3ff)
	}
	// Subnormal (may round up into the smallest normal).
	return sign | uint16(m)
}

// float64ToBFloat converts to bfloat16, rounding to nearest even.
func float64ToBFloat(f float64) uint16 {
	if math.IsNaN(f) {
		return 0x7fc0
	}
	b := math.Float32bits(float32(f))
	lsb := (b >> 16) & 1
	b += 0x7fff + lsb
	return uint16(b >> 16)
}

// float64ToX87 converts exactly to the x87 80-bit format (little-endian:
// 64-bit significand with explicit integer bit, then sign and exponent).
func float64ToX87(f float64) []byte {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	var se uint16
	var sig uint64
	switch {
	case exp == 0 && mant == 0:
		se = sign
	case exp == 0x7ff:
		se = sign | 0x7fff
		sig = 1<<63 | mant<<11
	case exp == 0:
		// Subnormal double: normalize.
		shift := 0
		for mant&(1<<52) == 0 {
			mant <<= 1
			shift++
		}
		se = sign | uint16(1-1023-shift+16383)
		sig = mant << 11
	default:
		se = sign | uint16(exp-1023+16383)
		sig = 1<<63 | mant<<11
	}
	out := binary.LittleEndian.AppendUint64(nil, sig)
	return binary.LittleEndian.AppendUint16(out, se)
}
