package llvmir

import (
	"math/rand"
	"strconv"
	"testing"
)

// renumberedRef is appendRenumbered as first written, one byte at a time:
// the oracle for the faster search.
func renumberedRef(text []byte, renum map[int]int) []byte {
	var dst []byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ';':
			for i < len(text) && text[i] != '\n' {
				dst = append(dst, text[i])
				i++
			}
			if i < len(text) {
				dst = append(dst, text[i])
			}
			continue
		case '"':
			j := quotedEnd(text, i)
			dst = append(dst, text[i:j]...)
			i = j - 1
			continue
		case '@':
			j := i + 1
			if j < len(text) && text[j] == '"' {
				j = quotedEnd(text, j)
				dst = append(dst, text[i:j]...)
				i = j - 1
				continue
			}
			for j < len(text) && isDigit(text[j]) {
				j++
			}
			if j > i+1 {
				n, err := strconv.Atoi(string(text[i+1 : j]))
				if nn, ok := renum[n]; err == nil && ok {
					dst = append(dst, '@')
					dst = strconv.AppendInt(dst, int64(nn), 10)
					i = j - 1
					continue
				}
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// quotedEnd returns the offset after the string whose quote is at i (the
// end of text when it is not closed).
func quotedEnd(text []byte, i int) int {
	for j := i + 1; j < len(text); j++ {
		if text[j] == '"' {
			return j + 1
		}
	}
	return len(text)
}

func TestAppendRenumbered(t *testing.T) {
	renum := map[int]int{0: 5, 1: 1, 2: 0, 12: 3, 7: 70}
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"@0", "@5"},
		{"call void @2()\n", "call void @0()\n"},
		{"@1 @12 @3 @120", "@1 @3 @3 @120"},
		{"; @0 in a comment\n  @0\n", "; @0 in a comment\n  @5\n"},
		{`c"@0" @0`, `c"@0" @5`},
		{`@"0" @0`, `@"0" @5`},
		{`"unterminated @0`, `"unterminated @0`},
		{"; no newline @0", "; no newline @0"},
		{"store ptr @7, ptr addrspace(1) @0, align 8 ; @2\n@2", "store ptr @70, ptr addrspace(1) @5, align 8 ; @2\n@0"},
		{"%0 = load i32, ptr @0abc", "%0 = load i32, ptr @5abc"},
		{"@", "@"},
		{"a long line without any reference in it at all, past eight bytes @2", "a long line without any reference in it at all, past eight bytes @0"},
	} {
		if got := string(appendRenumbered(nil, []byte(tc.in), renum)); got != tc.want {
			t.Errorf("appendRenumbered(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if ref := string(renumberedRef([]byte(tc.in), renum)); ref != tc.want {
			t.Errorf("oracle(%q) = %q, want %q", tc.in, ref, tc.want)
		}
	}
}

// TestAppendRenumberedRandom compares the search with the oracle on text
// made of the bytes it stops at, digits and filler, in every alignment.
func TestAppendRenumberedRandom(t *testing.T) {
	renum := map[int]int{0: 3, 1: 0, 3: 1, 10: 2}
	alphabet := []byte("@@@;\"\n0123 abcdefgh%.,")
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		b := make([]byte, r.Intn(64))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		got, want := appendRenumbered(nil, b, renum), renumberedRef(b, renum)
		if string(got) != string(want) {
			t.Fatalf("appendRenumbered(%q) = %q, oracle %q", b, got, want)
		}
	}
}
