package clopt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newTestSet() (*Set, *bool, *string, *string, *[]Arg) {
	s := New("tool", "a test tool", "[options] <input>")
	f := s.Bool("symbols", "emit symbols")
	o := s.String("o", "filename", "", "Output filename")
	e := s.Enum("split", "", "split mode", []EnumValue{{"source", "per source"}, {"kernel", "per kernel"}}, "none")
	l := s.List("replace", "dst,src", "replace a column")
	s.Alias("r", "replace")
	return s, f, o, e, l
}

func TestParseForms(t *testing.T) {
	for _, args := range [][]string{
		{"-symbols", "-o", "out", "--split=kernel", "--replace=a,b", "in.ll", "-r", "c,d"},
		{"--symbols=true", "--o=out", "-split", "kernel", "-replace", "a,b", "in.ll", "--r=c,d"},
	} {
		s, f, o, e, l := newTestSet()
		if err := s.Parse(args, nil); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if !*f || *o != "out" || *e != "kernel" || len(*l) != 2 || (*l)[0].Value != "a,b" || (*l)[1].Value != "c,d" {
			t.Errorf("%q: got f=%v o=%q e=%q l=%v", args, *f, *o, *e, *l)
		}
		if got := s.PositionalValues(); len(got) != 1 || got[0] != "in.ll" {
			t.Errorf("%q: positionals %q", args, got)
		}
		occ := s.Occurrences()
		if occ[len(occ)-1].Name != "replace" || (*l)[0].Pos >= (*l)[1].Pos {
			t.Errorf("%q: positions not kept: %v", args, occ)
		}
	}
}

func TestDoubleDashEndsOptions(t *testing.T) {
	s, f, _, _, _ := newTestSet()
	if err := s.Parse([]string{"--", "-symbols", "-"}, nil); err != nil {
		t.Fatal(err)
	}
	if *f || len(s.Positional()) != 2 {
		t.Errorf("after --: f=%v positionals=%v", *f, s.Positional())
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-symbol"}, "tool: Unknown command line argument '-symbol'.  Try: 'tool --help'\ntool: Did you mean '--symbols'?"},
		{[]string{"-zzzzzzzzzz"}, "tool: Unknown command line argument '-zzzzzzzzzz'.  Try: 'tool --help'"},
		{[]string{"-o"}, "tool: for the -o option: requires a value!"},
		{[]string{"-o", "a", "-o", "b"}, "tool: for the -o option: may only occur zero or one times!"},
		{[]string{"-split=x"}, "tool: for the --split option: Cannot find option named 'x'!"},
		{[]string{"-symbols=maybe"}, "tool: for the --symbols option: 'maybe' is invalid value for boolean argument! Try 0 or 1"},
	}
	for _, c := range cases {
		s, _, _, _, _ := newTestSet()
		err := s.Parse(c.args, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %q", c.args, err, c.want)
		}
	}
	s, _, _, e, _ := newTestSet()
	if err := s.Parse([]string{"-split=none"}, nil); err != nil || *e != "none" {
		t.Errorf("hidden enum value: %v %q", err, *e)
	}
}

func TestHelp(t *testing.T) {
	s, _, _, _, _ := newTestSet()
	var out bytes.Buffer
	if err := s.Parse([]string{"--help"}, &out); err != ErrHelp {
		t.Fatalf("got %v", err)
	}
	h := out.String()
	for _, want := range []string{"OVERVIEW: a test tool", "USAGE: tool [options] <input>", "Generic Options:", "tool options:", "-o <filename>", "--split=<value>", "=kernel", "--replace=<dst,src>"} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "=none") || strings.Contains(h, "  -r ") {
		t.Errorf("help shows hidden things:\n%s", h)
	}
	if strings.Index(h, "--replace") > strings.Index(h, "--split") {
		t.Errorf("options not sorted:\n%s", h)
	}
}

func TestHelpIndentsContinuationLines(t *testing.T) {
	s := New("tool", "", "[options]")
	s.String("host", "triple", "", "Target triple.\nSecond line.")
	var out bytes.Buffer
	s.PrintHelp(&out, false)
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "Target triple.") {
			col := strings.Index(l, "Target")
			if got := strings.Index(lines[i+1], "Second"); got != col {
				t.Errorf("continuation at column %d, want %d:\n%s", got, col, out.String())
			}
			return
		}
	}
	t.Fatalf("help lacks the option:\n%s", out.String())
}

// TestResponseFiles: @file arguments are replaced by the arguments the
// file holds, split as LLVM's GNU tokenizer splits them (quotes,
// backslashes, nested files), before the options are parsed; an @file
// that does not exist stays as it is; one that includes itself is an
// error.
func TestResponseFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nested := write("nested.rsp", "\ufeff--split=kernel\n")
	rsp := write("args.rsp", "-symbols -o \"out file.o\"\n'in 1.ll' in\\ 2.ll\t@"+nested+" \"\" --replace=\"a\\\"b\",c\n")
	s, f, o, e, l := newTestSet()
	if err := s.Parse([]string{"@" + rsp, "last.ll", "@" + filepath.Join(dir, "missing.rsp")}, nil); err != nil {
		t.Fatal(err)
	}
	if !*f || *o != "out file.o" || *e != "kernel" || len(*l) != 1 || (*l)[0].Value != `a"b,c` {
		t.Errorf("got f=%v o=%q e=%q l=%v", *f, *o, *e, *l)
	}
	want := []string{"in 1.ll", "in 2.ll", "last.ll", "@" + filepath.Join(dir, "missing.rsp")}
	if got := s.PositionalValues(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("positionals %q, want %q", got, want)
	}
	loop := write("loop.rsp", "-symbols @"+filepath.Join(dir, "loop.rsp"))
	s, _, _, _, _ = newTestSet()
	err := s.Parse([]string{"@" + loop}, nil)
	if err == nil || !strings.Contains(err.Error(), "recursive expansion of: '"+loop+"'") {
		t.Errorf("a response file that includes itself: %v", err)
	}
}
