package bitcode

import (
	"math"
	"strconv"
	"strings"
)

const hexDigits = "0123456789ABCDEF"

// quoteName renders a global or local name without its sigil as
// AsmWriter does: bare when it is [-a-zA-Z$._][-a-zA-Z$._0-9]*, otherwise
// in quotes with \XX escapes.
func quoteName(s string) string {
	if isBareName(s) {
		return s
	}
	return quoteString(s)
}

// isBareName says whether name s is written without quotes.
func isBareName(s string) bool {
	bare := s != "" && !(s[0] >= '0' && s[0] <= '9')
	for i := 0; bare && i < len(s); i++ {
		c := s[i]
		bare = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '$' || c == '.' || c == '_'
	}
	return bare
}

// quoteString renders s in double quotes, escaping as AsmWriter's
// printEscapedString does.
func quoteString(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	escapeInto(&sb, s)
	sb.WriteByte('"')
	return sb.String()
}

func escapeInto(sb *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			sb.WriteByte(c)
		} else {
			sb.WriteByte('\\')
			sb.WriteByte(hexDigits[c>>4])
			sb.WriteByte(hexDigits[c&15])
		}
	}
}

// mdName renders a metadata kind or named-metadata name: bare characters
// of [-a-zA-Z$._0-9] (not a leading digit) as is, others as \XX.
func mdName(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '$' || c == '.' || c == '_' || (i > 0 && c >= '0' && c <= '9')
		if ok {
			sb.WriteByte(c)
		} else {
			sb.WriteByte('\\')
			sb.WriteByte(hexDigits[c>>4])
			sb.WriteByte(hexDigits[c&15])
		}
	}
	return sb.String()
}

func hex64(v uint64, digits int) string {
	s := strconv.FormatUint(v, 16)
	s = strings.ToUpper(s)
	if len(s) < digits {
		s = strings.Repeat("0", digits-len(s)) + s
	}
	return s
}

// floatText renders a floating-point constant of kind k from its bitcode
// words. Doubles print in decimal when that reads back exactly (as
// AsmWriter does), else in hex; float, half and bfloat use AsmWriter's
// hex forms.
func floatText(k uint8, w []uint64) string {
	switch k {
	case tHalf:
		return "0xH" + hex64(w[0]&0xffff, 4)
	case tBFloat:
		return "0xR" + hex64(w[0]&0xffff, 4)
	case tFloat:
		f := math.Float32frombits(uint32(w[0]))
		if s, ok := exactDecimal(float64(f), func(s string) bool {
			// Exact as a double, so LLParser's double-then-float reading
			// cannot round twice.
			g, err := strconv.ParseFloat(s, 64)
			return err == nil && g == float64(f)
		}); ok {
			return s
		}
		return "0x" + hex64(float32BitsAsDouble(uint32(w[0])), 16)
	case tDouble:
		f := math.Float64frombits(w[0])
		if s, ok := exactDecimal(f, func(s string) bool {
			g, err := strconv.ParseFloat(s, 64)
			return err == nil && math.Float64bits(g) == w[0]
		}); ok {
			return s
		}
		return "0x" + hex64(w[0], 16)
	case tX86FP80:
		var lo uint64
		if len(w) > 1 {
			lo = w[1]
		}
		return "0xK" + hex64(w[0]>>48, 4) + hex64(w[0]<<16|lo&0xffff, 16)
	case tFP128, tPPCFP128:
		var hi uint64
		if len(w) > 1 {
			hi = w[1]
		}
		p := "0xL"
		if k == tPPCFP128 {
			p = "0xM"
		}
		return p + hex64(w[0], 16) + hex64(hi, 16)
	}
	return "0x" + hex64(w[0], 16)
}

// exactDecimal formats f as AsmWriter's "%e"-style decimal (six digits
// after the point) when that reads back to the same value.
func exactDecimal(f float64, back func(string) bool) (string, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	s := strconv.FormatFloat(f, 'e', 6, 64)
	// Go writes e+00; LLVM writes e+00 too (at least two exponent digits).
	if !back(s) {
		return "", false
	}
	return s, true
}

// float32BitsAsDouble widens a float's bits to a double's exactly,
// keeping a NaN's payload and sign (as APFloat's conversion does for
// printing).
func float32BitsAsDouble(b uint32) uint64 {
	sign := uint64(b>>31) << 63
	exp := (b >> 23) & 0xff
	mant := uint64(b & 0x7fffff)
	switch {
	case exp == 0xff:
		return sign | 0x7ff<<52 | mant<<29
	case exp == 0 && mant == 0:
		return sign
	case exp == 0: // subnormal: normalise
		e := int64(-126)
		for mant&0x800000 == 0 {
			mant <<= 1
			e--
		}
		mant &= 0x7fffff
		return sign | uint64(e+1023)<<52 | mant<<29
	default:
		return sign | uint64(int64(exp)-127+1023)<<52 | mant<<29
	}
}
