package graph

import (
	"context"
	"strings"
	"testing"
)

func TestChangedWords(t *testing.T) {
	w := func(s string) []string { return strings.Fields(s) }
	for _, tc := range []struct{ old, cur, want string }{
		{"ocloc compile -device pvc,acm-g10 -q", "ocloc compile -device pvc -q", `-device "pvc,acm-g10" → "pvc"`},
		{"llc -O2 in.ll", "llc -O2 -mattr=+ptx80 in.ll", `added -O2 "-mattr=+ptx80"`},
		{"llc -O2 -g in.ll", "llc -O2 in.ll", `removed -O2 "-g"`},
		{"a b c d e f g h", "a x c y e z g w", `"b" → "x", "d" → "y", "f" → "z", …`},
	} {
		if got := changedWords(w(tc.old), w(tc.cur)); got != tc.want {
			t.Errorf("changedWords(%q, %q) = %q, want %q", tc.old, tc.cur, got, tc.want)
		}
	}
}

// TestExplainChangedWords: -explain says which words of an action's
// command line changed since the last build, from the words kept in the
// state directory.
func TestExplainChangedWords(t *testing.T) {
	tb := newTestBuild(t)
	tb.write("in.txt", "x\n")
	add := func(flag string) {
		tb.g = New()
		in, out := tb.g.File("in.txt", Plain), tb.g.File("out.txt", Plain)
		if err := tb.g.Add(&Action{Desc: "copy", Tool: shTool, Argv: []string{"sh", "-c", `cp "$1" "$2"`, "sh", "in.txt", "out.txt", flag},
			In: []*Node{in}, Out: []*Node{out}}); err != nil {
			t.Fatal(err)
		}
	}
	add("--level=1")
	tb.build(tb.opts())
	add("--level=2")
	if _, err := tb.g.Build(context.Background(), tb.opts()); err != nil {
		t.Fatal(err)
	}
	if want := `sycbuild explain: out.txt: the command line changed: "--level=1" → "--level=2"`; !strings.Contains(tb.log.String(), want) {
		t.Errorf("-explain does not say %q:\n%s", want, tb.log.String())
	}
}
