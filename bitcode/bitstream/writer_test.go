package bitstream

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestWriterAnalyzer writes a stream with every kind of abbreviation
// operand, nested blocks and an unabbreviated record with a 64-bit operand,
// and checks what llvm-bcanalyzer-19 reads back.
func TestWriterAnalyzer(t *testing.T) {
	s := NewWriter()
	s.Grow(8) // less than the stream: it grows past it
	s.Magic()
	s.EnterBlock(BlockInfoBlockID, 2)
	info := s.InfoAbbrev(102, Literal(9), VBR(6))
	s.ExitBlock()
	s.EnterBlock(102, 3)
	s.AbbrevRecord(info, []uint64{77}, nil, nil)
	own := s.DefineAbbrev(Literal(10), Fixed(3))
	s.AbbrevRecord(own, []uint64{5}, nil, nil)
	s.ExitBlock()
	s.EnterBlock(100, 3)
	a := s.DefineAbbrev(Literal(7), Fixed(5), VBR(4), Array(), Char6())
	s.AbbrevRecord(a, []uint64{17, 1000, 'a', 'Z', '_', '9', '.'}, nil, nil)
	b := s.DefineAbbrev(Fixed(4), VBR(6), Blob())
	s.AbbrevRecord(b, []uint64{9, 123456}, []byte("xyz!q"), nil)
	c := s.DefineAbbrev(Literal(8), VBR(6), Array(), Fixed(7))
	s.TextRecord(c, 42, "a-b")
	s.TextRecord(c, 43, "a-b-c-d-e") // more than one 32-bit group of elements
	d := s.DefineAbbrev(Literal(11), Fixed(4), Array(), Char6())
	s.TextRecord(d, 7, "abc_DEF.123xyz")
	s.Record(5, 1, 2, 1<<40, 1<<63-1)
	s.EnterBlock(101, 4)
	s.Record(1)
	s.ExitBlock()
	s.AbbrevRecord(a, []uint64{3, 0}, nil, nil) // an empty array
	s.ExitBlock()
	name := filepath.Join(t.TempDir(), "s.bc")
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Tool(t, "llvm-bcanalyzer-19"), "-dump", name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("llvm-bcanalyzer-19 -dump %s: %v\n%s", name, err, stderr.Bytes())
	}
	got := string(out)
	for _, want := range []string{
		"<UnknownBlock100 NumWords=",
		"<UnknownCode9 abbrevid=4 op0=77/>",
		"<UnknownCode10 abbrevid=5 op0=5/>",
		"<UnknownCode7 abbrevid=4 op0=17 op1=1000 op2=97 op3=90 op4=95 op5=57 op6=46/> record string = 'aZ_9.'",
		"<UnknownCode9 abbrevid=5 op0=123456/> blob data = 'xyz!q'",
		"<UnknownCode8 abbrevid=6 op0=42 op1=97 op2=45 op3=98/> record string = 'a-b'",
		"record string = 'a-b-c-d-e'",
		"<UnknownCode11 abbrevid=7 op0=7 ",
		"record string = 'abc_DEF.123xyz'",
		"<UnknownCode5 op0=1 op1=2 op2=1099511627776 op3=9223372036854775807/>",
		"<UnknownBlock101 NumWords=1 BlockCodeSize=4>\n    <UnknownCode1/>\n  </UnknownBlock101>",
		"<UnknownCode7 abbrevid=4 op0=3 op1=0/>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("llvm-bcanalyzer-19 -dump does not show %q:\n%s", want, got)
		}
	}
	if uint64(buf.Len()) != s.Size() || buf.Len()%4 != 0 {
		t.Errorf("wrote %d bytes, Size says %d", buf.Len(), s.Size())
	}
	if b, ok, err := s.Bytes(); !ok || err != nil || !bytes.Equal(b, buf.Bytes()) {
		t.Errorf("Bytes: ok %v, error %v, same as WriteTo's: %v", ok, err, bytes.Equal(b, buf.Bytes()))
	}
}

// TestWriterErrors checks misuses of the stream writer: each is an error
// that WriteTo returns, and nothing is written.
func TestWriterErrors(t *testing.T) {
	cases := []struct {
		name string
		use  func(s *Writer)
		want string
	}{
		{"exit outside a block", func(s *Writer) { s.ExitBlock() }, "end of block outside any block"},
		{"open block", func(s *Writer) { s.EnterBlock(8, 3) }, "1 blocks left open"},
		{"width", func(s *Writer) { s.EnterBlock(8, 40) }, "abbreviation width 40 out of range"},
		{"abbreviation outside a block", func(s *Writer) { s.DefineAbbrev(Literal(1)) }, "abbreviation defined outside any block"},
		{"undefined abbreviation", func(s *Writer) { s.EnterBlock(8, 3); s.AbbrevRecord(4, nil, nil, nil) }, "undefined abbreviation 4"},
		{"array not last", func(s *Writer) { s.EnterBlock(8, 3); s.DefineAbbrev(Literal(1), Array(), Fixed(8), Fixed(8)) }, "an array must be followed by exactly one element encoding, last"},
		{"blob not last", func(s *Writer) { s.EnterBlock(8, 3); s.DefineAbbrev(Literal(1), Blob(), Fixed(8)) }, "a blob must be last"},
		{"fixed too wide", func(s *Writer) { s.EnterBlock(8, 3); s.DefineAbbrev(Literal(1), Fixed(33)) }, "width 33 out of range"},
		{"too many abbreviations", func(s *Writer) {
			s.EnterBlock(8, 2)
			s.DefineAbbrev(Literal(1))
		}, "does not fit the block's 2-bit abbreviation IDs"},
		{"value too wide", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(3))
			s.AbbrevRecord(a, []uint64{8}, nil, nil)
		}, "8 does not fit 3 bits"},
		{"not char6", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Array(), Char6())
			s.AbbrevRecord(a, []uint64{'a', '-'}, nil, nil)
		}, "45 is not a char6 character"},
		{"too few values", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(3), VBR(6))
			s.AbbrevRecord(a, []uint64{1}, nil, nil)
		}, "1 values for more operands"},
		{"too many values", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(3))
			s.AbbrevRecord(a, []uint64{1, 2}, nil, nil)
		}, "2 values for 1 operands"},
		{"info abbreviation outside BLOCKINFO", func(s *Writer) {
			s.EnterBlock(8, 3)
			s.InfoAbbrev(9, Literal(1))
		}, "block info abbreviation outside a BLOCKINFO block"},
		{"text record of another shape", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(3))
			s.TextRecord(a, 1, "x")
		}, "abbreviation 4 is not [literal, scalar, array]"},
		{"text not char6", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), VBR(8), Array(), Char6())
			s.TextRecord(a, 1, "a-b")
		}, "array element 1: 45 is not a char6 character"},
		{"text value too wide", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(2), Array(), Fixed(8))
			s.TextRecord(a, 4, "ab")
		}, "operand 1: 4 does not fit 2 bits"},
		{"text encoded for other elements", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), VBR(8), Array(), Char6())
			t, _ := EncodeText(Fixed(8), "ab", nil)
			s.EncodedTextRecord(a, 1, t)
		}, "abbreviation 4: a text encoded for other elements"},
		{"blob without blob operand", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Fixed(3))
			s.AbbrevRecord(a, []uint64{1}, []byte("x"), nil)
		}, "has no blob operand"},
		{"blob too large", func(s *Writer) {
			s.EnterBlock(8, 3)
			a := s.DefineAbbrev(Literal(1), Blob())
			s.AbbrevRecord(a, nil, nil, &BlobFile{Name: "x", Size: 1 << 33})
		}, "a blob holds at most 4294967295"},
	}
	for _, c := range cases {
		s := NewWriter()
		c.use(s)
		var buf bytes.Buffer
		_, err := s.WriteTo(&buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written", c.name, buf.Len())
		}
		if b, _, err := s.Bytes(); err == nil || b != nil {
			t.Errorf("%s: Bytes gave %d bytes, error %v", c.name, len(b), err)
		}
	}
}

// An encoded text writes the bits TextRecord writes, at any bit offset,
// for every element operand and length around the 32-bit groups.
func TestEncodedTextRecord(t *testing.T) {
	els := []AbbrevOp{Char6(), Fixed(7), Fixed(8), VBR(6)}
	texts := []string{"", "a", "abcde", "abcdef", "x.y_Z09", "some_longer.name.i.i.i1234", "ab-cd", strings.Repeat("q", 77)}
	for _, el := range els {
		for _, text := range texts {
			enc, err := EncodeText(el, text, []byte("prefix"))
			if wantErr := el == Char6() && text == "ab-cd"; (err != nil) != wantErr {
				t.Errorf("EncodeText(%v, %q): error %v", el, text, err)
			}
			if err != nil {
				continue
			}
			for skip := uint(0); skip < 40; skip += 3 {
				var want, got bytes.Buffer
				for i, w := range []*bytes.Buffer{&want, &got} {
					s := NewWriter()
					s.EnterBlock(8, 3)
					s.emit(0x5a5a5a5a5a, skip)
					a := s.DefineAbbrev(Literal(1), VBR(8), Array(), el)
					if i == 0 {
						s.TextRecord(a, 300, text)
					} else {
						s.EncodedTextRecord(a, 300, enc)
					}
					s.ExitBlock()
					if _, err := s.WriteTo(w); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(want.Bytes(), got.Bytes()) {
					t.Fatalf("%v %q after %d bits: encoded %x, want %x", el, text, skip, got.Bytes(), want.Bytes())
				}
			}
		}
	}
	if _, err := EncodeText(Char6(), "a b", nil); err == nil || !strings.Contains(err.Error(), "array element 1: 32 is not a char6 character") {
		t.Errorf("EncodeText of a blank as char6: %v", err)
	}
}

// TestEmitBits writes random runs of 0 to 64 bits, alignments and blocks
// entered and left at every bit offset, and checks the bytes against a
// model that writes one bit at a time: the pending bits a 64-bit
// accumulator holds must come out in order, and a block's length word
// must land where its header ends.
func TestEmitBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var bits []bool
		put := func(v uint64, n uint) {
			for i := uint(0); i < n; i++ {
				bits = append(bits, v>>i&1 == 1)
			}
		}
		align := func() {
			for len(bits)%32 != 0 {
				bits = append(bits, false)
			}
		}
		putVBR := func(v uint64, n uint) {
			hi := uint64(1) << (n - 1)
			for ; v >= hi; v >>= n - 1 {
				put(v&(hi-1)|hi, n)
			}
			put(v, n)
		}
		var lenAt []int // bit offsets of the open blocks' length words
		w := NewWriter()
		exit := func() {
			w.ExitBlock()
			put(EndBlock, 3)
			align()
			at := lenAt[len(lenAt)-1]
			lenAt = lenAt[:len(lenAt)-1]
			words := (len(bits) - at - 32) / 32
			for i := 0; i < 32; i++ {
				bits[at+i] = words>>i&1 == 1
			}
		}
		for op := 0; op < 60; op++ {
			switch k := rng.IntN(10); {
			case k < 7:
				n := uint(rng.IntN(65))
				v := rng.Uint64()
				w.emit(v, n)
				if n < 64 {
					v &= 1<<n - 1
				}
				put(v, n)
			case k == 7:
				w.align32()
				align()
			case k == 8:
				id := uint64(8 + rng.IntN(300))
				width := w.width
				w.EnterBlock(id, 3)
				put(EnterSubblock, width)
				putVBR(id, 8)
				putVBR(3, 4)
				align()
				lenAt = append(lenAt, len(bits))
				put(0, 32)
			case len(lenAt) > 0:
				exit()
			}
		}
		for len(lenAt) > 0 {
			exit()
		}
		got, ok, err := w.Bytes()
		if !ok || err != nil {
			t.Fatalf("round %d: Bytes: %v %v", round, ok, err)
		}
		align()
		want := make([]byte, len(bits)/8)
		for i, b := range bits {
			if b {
				want[i/8] |= 1 << (i % 8)
			}
		}
		if !bytes.Equal(got, want) || w.Size() != uint64(len(want)) {
			t.Fatalf("round %d: wrote %x (Size %d), want %x", round, got, w.Size(), want)
		}
	}
}
