package props

import (
	"errors"
	"fmt"
)

// The Base64 of the .prop format is LLVM's (llvm/lib/Support/Base64.cpp as
// PropertySetIO uses it), which is not RFC 4648: the alphabet is the standard
// one, but each group of three bytes is read as one little-endian 24-bit
// number and cut into four 6-bit digits from the low end; a tail of one byte
// gives two digits, a tail of two bytes three; there is no padding. So
// encoding/base64 cannot read or write it.

const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Invalid marks bytes that are not digits in base64Digit.
const base64Invalid = 0xFF

var base64Digit = func() (t [256]byte) {
	for i := range t {
		t[i] = base64Invalid
	}
	for i := range len(base64Alphabet) {
		t[base64Alphabet[i]] = byte(i)
	}
	return t
}()

// Base64EncodedLen is the length of the encoding of n bytes: ⌈8n/6⌉.
func Base64EncodedLen(n int) int { return (n*8 + 5) / 6 }

// Base64DecodedLen is the number of bytes that n digits decode to: ⌊6n/8⌋
// (n%4 == 1 is not a valid length).
func Base64DecodedLen(n int) int { return n * 6 / 8 }

// AppendBase64 appends the encoding of src to dst.
func AppendBase64(dst, src []byte) []byte {
	i := 0
	for ; i+3 <= len(src); i += 3 {
		v := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16
		dst = append(dst, base64Alphabet[v&63], base64Alphabet[v>>6&63], base64Alphabet[v>>12&63], base64Alphabet[v>>18])
	}
	switch len(src) - i {
	case 1:
		v := uint32(src[i])
		dst = append(dst, base64Alphabet[v&63], base64Alphabet[v>>6])
	case 2:
		v := uint32(src[i]) | uint32(src[i+1])<<8
		dst = append(dst, base64Alphabet[v&63], base64Alphabet[v>>6&63], base64Alphabet[v>>12])
	}
	return dst
}

// Base64Encode returns the encoding of src.
func Base64Encode(src []byte) string {
	return string(AppendBase64(make([]byte, 0, Base64EncodedLen(len(src))), src))
}

// errBase64Length is LLVM's error for a trailing group of one digit, which
// cannot hold a whole byte.
var errBase64Length = errors.New("invalid encoded sequence length")

// Base64Decode decodes s. Errors are worded as LLVM words them: a bad digit
// gives "invalid char in Base64Impl encoding: 0x<hex>", a length of 4k+1
// "invalid encoded sequence length". As in LLVM, the complete groups of four
// are checked before the length of the tail.
func Base64Decode(s string) ([]byte, error) {
	out := make([]byte, 0, Base64DecodedLen(len(s)))
	digits := func(group string) (uint32, error) {
		var v uint32
		for k := range len(group) {
			d := base64Digit[group[k]]
			if d == base64Invalid {
				return 0, fmt.Errorf("invalid char in Base64Impl encoding: 0x%X", group[k])
			}
			v |= uint32(d) << (6 * k)
		}
		return v, nil
	}
	i := 0
	for ; i+4 <= len(s); i += 4 {
		v, err := digits(s[i : i+4])
		if err != nil {
			return nil, err
		}
		out = append(out, byte(v), byte(v>>8), byte(v>>16))
	}
	switch len(s) - i {
	case 1:
		return nil, errBase64Length
	case 2, 3:
		tail := s[i:]
		v, err := digits(tail)
		if err != nil {
			return nil, err
		}
		out = append(out, byte(v))
		if len(tail) == 3 {
			out = append(out, byte(v>>8))
		}
	}
	return out, nil
}
