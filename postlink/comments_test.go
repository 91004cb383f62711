package postlink

import (
	"bytes"
	"testing"
)

func TestCommentFilter(t *testing.T) {
	in := "; header\nsource_filename = \"a;b\"\n\n  ; indented comment\n\tdefine void @f() { ; trailing stays\n  ret void\n}\n;last"
	want := "source_filename = \"a;b\"\n\n\tdefine void @f() { ; trailing stays\n  ret void\n}\n"
	// Every split of the input into two writes gives the same output.
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		f := &commentFilter{w: &b}
		f.Write([]byte(in[:cut]))
		f.Write([]byte(in[cut:]))
		if b.String() != want {
			t.Fatalf("cut at %d: got %q, want %q", cut, b.String(), want)
		}
	}
	// Byte by byte.
	var b bytes.Buffer
	f := &commentFilter{w: &b}
	for i := 0; i < len(in); i++ {
		f.Write([]byte{in[i]})
	}
	if b.String() != want {
		t.Errorf("byte by byte: got %q", b.String())
	}
}
