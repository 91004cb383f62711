package foreach

import (
	"reflect"
	"testing"
)

func TestCommands(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		out  []string // per job: the output to substitute
		want [][]string
	}{
		{"one list",
			Spec{Command: []string{"echo", "{}"}, Lists: []List{{Replace: "{}", Items: []string{"a", "b"}}}},
			nil, [][]string{{"a"}, {"b"}}},
		{"two lists, in-arg, out-increment (the reference's test)",
			Spec{Command: []string{"echo", "-x={}.out", "-y=inrep.out", "-z=T_out.prj"}, OutIncrement: "T_out.prj",
				Lists: []List{{Replace: "{}", Items: []string{"1.tgt", "2.tgt"}}, {Replace: "inrep", Items: []string{"3.tgt", "4.tgt"}}}},
			nil, [][]string{{"-x=1.tgt.out", "-y=3.tgt.out", "-z=T_out.prj"}, {"-x=2.tgt.out", "-y=4.tgt.out", "-z=T_out.prj_1"}}},
		{"every occurrence, several placeholders in one argument",
			Spec{Command: []string{"tool", "{}+{}", "[A:B]"},
				Lists: []List{{Replace: "{}", Items: []string{"p"}}, {Replace: "A", Items: []string{"q"}}, {Replace: "B", Items: []string{"r"}}}},
			nil, [][]string{{"p+p", "[q:r]"}}},
		{"items holding placeholder text are not substituted again",
			Spec{Command: []string{"cp", "{}", "/o/x.tmp"}, OutReplace: "/o/x.tmp",
				Lists: []List{{Replace: "{}", Items: []string{"/o/x.tmp1.tgt"}}}},
			[]string{"/o/x-123.out"}, [][]string{{"/o/x.tmp1.tgt", "/o/x-123.out"}}},
		{"longest placeholder wins where two start",
			Spec{Command: []string{"t", "%t.a", "%t"},
				Lists: []List{{Replace: "%t", Items: []string{"S"}}, {Replace: "%t.a", Items: []string{"L"}}}},
			nil, [][]string{{"L", "S"}}},
		{"a whole-argument file starting with '-' is not an option",
			Spec{Command: []string{"llc", "{}", "-o", "out", "x{}"}, OutReplace: "out",
				Lists: []List{{Replace: "{}", Items: []string{"-help.ll"}}}},
			[]string{"-o/m.s"}, [][]string{{"./-help.ll", "-o", "./-o/m.s", "x-help.ll"}}},
		{"program is never substituted",
			Spec{Command: []string{"{}", "{}"}, Lists: []List{{Replace: "{}", Items: []string{"a"}}}},
			nil, [][]string{{"a"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.spec.compile()
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range c.want {
				out := ""
				if c.out != nil {
					out = c.out[j]
				}
				if got := p.command(j, out); !reflect.DeepEqual(got, w) {
					t.Errorf("job %d: got %q, want %q", j, got, w)
				}
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	l := func(r string, items ...string) List { return List{Replace: r, Items: items, Name: r + ".list"} }
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{Lists: []List{l("{}")}}, "no command given"},
		{Spec{Command: []string{"echo"}}, "no input file list given"},
		{Spec{Command: []string{"echo", "x"}, Lists: []List{l("")}}, "the placeholder of input file list 1 (.list) is empty"},
		{Spec{Command: []string{"echo", "x"}, Lists: []List{l("{}")}}, "the placeholder '{}' of input file list {}.list occurs in no argument of the command"},
		{Spec{Command: []string{"echo", "{}", "[]"}, Lists: []List{l("{}", "a"), l("[]", "b", "c")}}, "All input file lists must have same number of lines! ({}.list has 1, [].list has 2)"},
		{Spec{Command: []string{"echo", "{}"}, Lists: []List{l("{}")}, OutReplace: "OUT"}, "Couldn't find replace string for output in the command."},
		{Spec{Command: []string{"echo", "{}", "OUT"}, Lists: []List{l("{}")}, OutReplace: "OUT", Deterministic: true}, "deterministic output names need an output directory (--out-dir)"},
	}
	for _, c := range cases {
		_, err := c.spec.compile()
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: got %v, want %q", c.spec, err, c.want)
		}
	}
}

func TestOutputNames(t *testing.T) {
	cases := []struct {
		replace, dir, ext, want string
	}{
		{"/x/Output/test.ll.tmp", "out", "out", "out/test.ll_3.out"},
		{"obj.o", "d", "spv", "d/obj_3.spv"},
		{"noext", "d", "", "d/noext_3"},
		{".hidden", "d", "bc", "d/_3.bc"},
	}
	for _, c := range cases {
		s := Spec{Command: []string{"t", "{}", c.replace}, Lists: []List{{Replace: "{}"}}, OutReplace: c.replace, OutDir: c.dir, OutExt: c.ext, Deterministic: true}
		p, err := s.compile()
		if err != nil {
			t.Fatal(err)
		}
		if got := p.deterministicOutput(3); got != c.want {
			t.Errorf("%q: got %q, want %q", c.replace, got, c.want)
		}
	}
}

func TestQuoteCommand(t *testing.T) {
	got := QuoteCommand([]string{"cp", "a b", "", "it's", "-o=x/y.out", "$HOME"})
	if want := `cp 'a b' '' 'it'\''s' -o=x/y.out '$HOME'`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
