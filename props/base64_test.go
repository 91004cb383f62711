package props

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func u32s(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// The literals are values that sycl-post-link's lit tests check, encoded by
// LLVM (with the 8-byte bit-count prefix).
func TestBase64KnownValues(t *testing.T) {
	cases := []struct {
		name string
		raw  []byte
		want string
	}{
		{"empty array", EncodeByteArray(nil), "AAAAAAAAAAA"},
		{"u32 {1,2,4}", EncodeByteArray(u32s(1, 2, 4)), "gBAAAAAAAAQAAAAACAAAAQAAAAA"},
		{"u32 {2,4}", EncodeByteArray(u32s(2, 4)), "ABAAAAAAAAgAAAAAEAAAAA"},
		{"u32 {4}", EncodeByteArray(u32s(4)), "gAAAAAAAAAABAAAA"},
		{"aspects {1,6,9,12}", EncodeByteArray(u32s(1, 6, 9, 12)), "ACAAAAAAAAQAAAAAGAAAAkAAAAADAAAA"},
		{"spec const descriptors", EncodeByteArray(u32s(0, 0, 4, 1, 4, 1, 0xFFFFFFFF, 5, 3)), "gEAAAAAAAAAAAAAAAAAAAQAAAAQAAAAAEAAAAEAAAAw/////FAAAAMAAAAA"},
		{"8 zero default bytes", EncodeByteArray(make([]byte, 8)), "ABAAAAAAAAAAAAAAAAAAAA"},
		{"bits 1,0", NewBitArray("", 2, []byte{0x01}).Bytes, "CAAAAAAAAAQA"},
		{"raw nothing", nil, ""},
		{"raw one byte", []byte{0xFF}, "/D"},
		{"raw two bytes", []byte{0x00, 0xF0}, "AAP"},
	}
	for _, c := range cases {
		if got := Base64Encode(c.raw); got != c.want {
			t.Errorf("%s: encode = %q, want %q", c.name, got, c.want)
		}
		if got := Base64EncodedLen(len(c.raw)); got != len(c.want) {
			t.Errorf("%s: encoded length = %d, want %d", c.name, got, len(c.want))
		}
		back, err := Base64Decode(c.want)
		if err != nil || !bytes.Equal(back, c.raw) {
			t.Errorf("%s: decode(%q) = %x, %v; want %x", c.name, c.want, back, err, c.raw)
		}
	}
}

func TestBase64DecodeErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"A", "invalid encoded sequence length"},
		{"AAAAA", "invalid encoded sequence length"},
		{"AA=A", "invalid char in Base64Impl encoding: 0x3D"},
		{"AAAA!", "invalid encoded sequence length"}, // the length is checked before the tail's digits
		{"AAAAA!", "invalid char in Base64Impl encoding: 0x21"},
		{"AAAA\nAAA", "invalid char in Base64Impl encoding: 0xA"},
	}
	for _, c := range cases {
		_, err := Base64Decode(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("decode(%q) error = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestBase64AllLengths(t *testing.T) {
	src := make([]byte, 64)
	for i := range src {
		src[i] = byte(i*37 + 11)
	}
	for n := range len(src) {
		enc := Base64Encode(src[:n])
		dec, err := Base64Decode(enc)
		if err != nil || !bytes.Equal(dec, src[:n]) {
			t.Fatalf("n=%d: round trip gave %x, %v", n, dec, err)
		}
		if Base64DecodedLen(len(enc)) != n {
			t.Errorf("n=%d: decoded length of %d digits = %d", n, len(enc), Base64DecodedLen(len(enc)))
		}
	}
}

func FuzzBase64(f *testing.F) {
	f.Add([]byte("gBAAAAAAAAQAAAAACAAAAQAAAAA"))
	f.Add([]byte{0, 1, 2, 255})
	f.Fuzz(func(t *testing.T, b []byte) {
		dec, err := Base64Decode(Base64Encode(b))
		if err != nil || !bytes.Equal(dec, b) {
			t.Fatalf("round trip of %x gave %x, %v", b, dec, err)
		}
		// Any text either decodes or is refused; decoded text re-encodes to
		// the same length.
		if dec, err := Base64Decode(string(b)); err == nil && len(Base64Encode(dec)) != len(b) {
			t.Fatalf("%q decoded to %d bytes, which encode to %d digits", b, len(dec), len(Base64Encode(dec)))
		}
	})
}
