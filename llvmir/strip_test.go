package llvmir

import (
	"strings"
	"testing"
)

func TestStripCommentLines(t *testing.T) {
	in := "; header\nsource_filename = \"a;b\"\n\n  ; indented comment\n\tdefine void @f() { ; trailing stays\n  ret void\n}\n;last"
	want := "source_filename = \"a;b\"\n\n\tdefine void @f() { ; trailing stays\n  ret void\n}\n"
	// Every split of the input into two chunks gives the same output.
	for cut := 0; cut <= len(in); cut++ {
		var f stripper
		out := f.filter(nil, []byte(in[:cut]))
		out = f.filter(out, []byte(in[cut:]))
		if string(out) != want {
			t.Fatalf("cut at %d: got %q, want %q", cut, out, want)
		}
	}
	// Byte by byte.
	var f stripper
	var out []byte
	for i := 0; i < len(in); i++ {
		out = f.filter(out, []byte{in[i]})
	}
	if string(out) != want {
		t.Errorf("byte by byte: got %q", out)
	}
}

// TestStripCleanChunks checks that a chunk without comment lines, copied
// as it is, gives what the line filter gives, whatever the filter's state
// before it and however the chunk is cut, whether or not it is told that the
// chunk ends its line.
func TestStripCleanChunks(t *testing.T) {
	before := []string{"", "x", "x\n", "x\n  ", "; c", "; c\n", "  ", "\t; c\n\t"}
	chunks := []string{"define void @f() {\n  ret void\n}\n", "  x\n\n  ", "a ; not a comment line\n", "\n", " \n\t\n", "y", "  ", " z"}
	for _, b := range before {
		for _, c := range chunks {
			if hasCommentLine([]byte(c)) {
				t.Fatalf("chunk %q holds a comment line", c)
			}
			for k, after := range [...]string{"", "\n", "; d\n", "w\n", "", "\n", "; d\n", "w\n"} {
				k := k / 4 // the second time round, clean is told when c ends its line
				var f1, f2 stripper
				want := f1.filter(nil, []byte(b))
				want = f1.filter(want, []byte(c))
				want = f1.filter(want, []byte(after))
				got := f2.filter(nil, []byte(b))
				var body []byte
				var ok bool
				endsLine := strings.HasSuffix(c, "\n") && k == 1
				if got, body, ok = f2.clean(got, []byte(c), false, endsLine); ok {
					got = append(got, body...)
				} else {
					got = f2.filter(got, []byte(c))
				}
				got = f2.filter(got, []byte(after))
				if string(got) != string(want) {
					t.Errorf("%q + clean %q + %q: got %q, want %q", b, c, after, got, want)
				}
			}
		}
	}
}

func TestHasCommentLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", false},
		{"define void @f() ; trailing\n", false},
		{"; c\n", true},
		{"x\n  \t; c\n", true},
		{"x = \"a;b\"\n", false},
		{"x\ny ; z\n", false},
	} {
		if got := hasCommentLine([]byte(c.in)); got != c.want {
			t.Errorf("hasCommentLine(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
