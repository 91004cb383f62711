package filetable

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// files writes name→content into a new temporary directory and returns it.
func files(t *testing.T, m map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, c := range m {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTformRuns(t *testing.T) {
	dir := files(t, map[string]string{
		"a.txt":    "[A|B|C|D]\naaa|bbb|100|XXX\nccc|ddd|200|YYY\n",
		"a0.txt":   "[11|12]\n00|11\n22|33\n",
		"list.txt": "x.spv\ny.spv\n",
		"s.txt":    "[A|B]\nfirst|1\n",
		"m1.txt":   "[P|Q]\n1|2\n",
		"m2.txt":   "[P|Q]\n3|4\n5|6\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := os.WriteFile(p("merge.txt"), []byte("[Name|Table]\nm|"+p("m1.txt")+"\nn|"+p("m2.txt")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		inputs []string
		ops    []Op
		drop   bool
		want   string
	}{
		{"extract rename replace", []string{"a.txt", "a0.txt"}, []Op{{Extract, "A,C,D"}, {Rename, "A,AA"}, {Replace, "AA,11"}}, false, "[AA|C|D]\n00|100|XXX\n22|200|YYY\n"},
		{"commands run in order: rename then extract", []string{"a.txt"}, []Op{{Rename, "B,Z"}, {Extract, "Z"}}, false, "[Z]\nbbb\nddd\n"},
		{"replaces consume inputs left to right", []string{"a.txt", "list.txt", "a0.txt"}, []Op{{Replace, "B,Code"}, {Replace, "D,12"}, {Extract, "B,D"}}, false, "[B|D]\nx.spv|11\ny.spv|33\n"},
		{"replace_cell takes the next input's name", []string{"s.txt", "list.txt"}, []Op{{ReplaceCell, "A,0"}}, false, "[A|B]\n" + p("list.txt") + "|1\n"},
		{"drop titles", []string{"a.txt"}, []Op{{Extract, "D"}}, true, "XXX\nYYY\n"},
		{"merge", []string{"merge.txt"}, []Op{{Merge, "Table"}}, false, "[P|Q]\n1|2\n3|4\n5|6\n"},
		{"merge then extract", []string{"merge.txt"}, []Op{{Merge, "Table"}, {Extract, "Q"}}, false, "[Q]\n2\n4\n6\n"},
		{"no commands copies the table", []string{"a.txt"}, nil, false, "[A|B|C|D]\naaa|bbb|100|XXX\nccc|ddd|200|YYY\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []string
			for _, n := range c.inputs {
				in = append(in, p(n))
			}
			out := filepath.Join(t.TempDir(), "out.txt")
			tf := Tform{Inputs: in, Ops: c.ops, Output: out, DropTitles: c.drop}
			if err := tf.Run(); err != nil {
				t.Fatal(err)
			}
			if got := readString(t, out); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			var stdout bytes.Buffer
			tf.Output, tf.Stdout = "-", &stdout
			if err := tf.Run(); err != nil || stdout.String() != c.want {
				t.Errorf("-o -: got %q, %v", stdout.String(), err)
			}
		})
	}
}

func TestTformCopySingleFile(t *testing.T) {
	dir := files(t, map[string]string{"payload.bin": "\x00\x01binary\n", "s.txt": "[A|B]\nfirst|1\n"})
	out := filepath.Join(dir, "u.bin")
	tf := Tform{Inputs: []string{filepath.Join(dir, "s.txt"), filepath.Join(dir, "payload.bin")}, Ops: []Op{{ReplaceCell, "A,0"}, {CopySingleFile, "A,0"}}, Output: out}
	if err := tf.Run(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, out); got != "\x00\x01binary\n" {
		t.Errorf("got %q", got)
	}
	// The older form without a row, on a one-row table.
	tf.Ops = []Op{{ReplaceCell, "A,0"}, {CopySingleFile, "A"}}
	var stdout bytes.Buffer
	tf.Output, tf.Stdout = "-", &stdout
	if err := tf.Run(); err != nil || stdout.String() != "\x00\x01binary\n" {
		t.Errorf("-o -: %q %v", stdout.String(), err)
	}
}

func TestTformErrors(t *testing.T) {
	dir := files(t, map[string]string{
		"a.txt":   "[A|B]\na|b\nc|d\n",
		"one.txt": "x\n",
		"bad.txt": "[A|B]\na\n",
		"m.txt":   "[T]\none.txt\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	type kind int
	const (
		usage kind = iota
		system
		other
	)
	cases := []struct {
		inputs []string
		ops    []Op
		kind   kind
		want   string
	}{
		{[]string{"a.txt"}, []Op{{Replace, ""}}, usage, "empty argument in replace"},
		{[]string{"a.txt"}, []Op{{Replace, "A"}}, usage, "invalid argument in replace"},
		{[]string{"a.txt"}, []Op{{Replace, "A,B,C"}}, usage, "invalid argument in replace"},
		{[]string{"a.txt"}, []Op{{ReplaceCell, ",0"}}, usage, "invalid argument in replace_cell"},
		{[]string{"a.txt"}, []Op{{ReplaceCell, "A,x"}}, usage, "invalid row index in replace_cell: 'x'"},
		{[]string{"a.txt"}, []Op{{ReplaceCell, "A,-1"}}, usage, "invalid row index in replace_cell: '-1'"},
		{[]string{"a.txt"}, []Op{{Rename, "A,"}}, usage, "invalid argument in rename"},
		{[]string{"a.txt"}, []Op{{Rename, ""}}, usage, "empty argument in rename"},
		{[]string{"a.txt"}, []Op{{Extract, ""}}, usage, "empty argument in extract"},
		{[]string{"a.txt"}, []Op{{Extract, "A,,B"}}, usage, "empty name in extract"},
		{[]string{"a.txt"}, []Op{{CopySingleFile, "A,"}}, usage, "invalid argument in copy_single_file"},
		{[]string{"a.txt"}, []Op{{Merge, ""}}, usage, "empty argument in merge"},
		// Arguments are checked before the command order and the inputs.
		{nil, []Op{{CopySingleFile, "A,0"}, {Extract, ""}}, usage, "empty argument in extract"},
		{nil, []Op{{CopySingleFile, "A,0"}, {Extract, "A"}}, usage, "copy_single_file must be the last transformation"},
		{nil, []Op{{Extract, "A"}}, usage, "no inputs"},
		{[]string{"a.txt", "one.txt"}, []Op{{Replace, "A,0"}, {ReplaceCell, "A,0"}}, usage, "no input for 'replace_cell' command"},
		{[]string{"a.txt", "nope.txt"}, []Op{{Replace, "A,0"}}, system, "file not found: nope.txt"},
		{[]string{"a.txt"}, []Op{{CopySingleFile, "A,2"}}, usage, "row index is out of bounds"},
		{[]string{"a.txt"}, []Op{{CopySingleFile, "Z,0"}}, usage, "no file found in specified column"},
		{[]string{"a.txt"}, []Op{{CopySingleFile, "A"}}, usage, "copy_single_file=A needs a table with exactly one row, this one has 2"},
		{[]string{"a.txt"}, []Op{{ReplaceCell, "A,2"}}, usage, "no input for 'replace_cell' command"},
		{[]string{"a.txt", "one.txt"}, []Op{{ReplaceCell, "A,2"}}, other, "row index out of bounds: 2 (the table has 2 rows)"},
		{[]string{"a.txt", "one.txt"}, []Op{{Replace, "A,0"}}, other, "column length mismatch for 'A' and '0' (2 and 1 rows)"},
		{[]string{"a.txt", "bad.txt"}, []Op{{Replace, "A,A"}}, other, p("bad.txt") + ":2:2: row size mismatch: 1 cells, the table has 2 columns"},
		{[]string{"bad.txt"}, nil, other, p("bad.txt") + ":2:2: row size mismatch: 1 cells, the table has 2 columns"},
		{[]string{"a.txt"}, []Op{{Merge, "Z"}}, other, "column not found: Z (the table of " + p("a.txt") + " has columns A, B)"},
		{[]string{"a.txt"}, []Op{{Extract, "Code"}}, other, "column not found Code (the table of " + p("a.txt") + " has columns A, B)"},
		{[]string{"a.txt", "a.txt"}, []Op{{Rename, "A,Z"}, {Replace, "A,B"}}, other, "Column not found: A (the table of " + p("a.txt") + " has columns Z, B)"},
		{[]string{"m.txt", "a.txt"}, []Op{{Replace, "T,Z"}}, other, "Column not found: Z (the table of " + p("a.txt") + " has columns A, B)"},
		{[]string{"a.txt"}, []Op{{Rename, "A,B"}}, other, "column already exists: B"},
	}
	for _, c := range cases {
		var in []string
		for _, n := range c.inputs {
			if n == "nope.txt" {
				in = append(in, n) // relative, so the message is stable
				continue
			}
			in = append(in, p(n))
		}
		outDir := t.TempDir()
		out := filepath.Join(outDir, "out.txt")
		if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := (&Tform{Inputs: in, Ops: c.ops, Output: out}).Run()
		var ue *UsageError
		var se *SystemError
		switch {
		case err == nil:
			t.Errorf("%v: no error, want %q", c.ops, c.want)
			continue
		case c.kind == usage && !errors.As(err, &ue), c.kind == system && !errors.As(err, &se),
			c.kind == other && (errors.As(err, &ue) || errors.As(err, &se)):
			t.Errorf("%v: error %q (%T) is of the wrong kind", c.ops, err, err)
		case err.Error() != c.want:
			t.Errorf("%v: got %q, want %q", c.ops, err, c.want)
		}
		// A failed run leaves the old output and no temporary files.
		if got := readString(t, out); got != "old\n" {
			t.Errorf("%v: output changed to %q", c.ops, got)
		}
		if ents, _ := os.ReadDir(outDir); len(ents) != 1 {
			t.Errorf("%v: output directory holds %d files", c.ops, len(ents))
		}
	}
}

func TestWriteFileAtomicFailure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	if err := WriteFileAtomic(out, func(w io.Writer) error { _, err := io.WriteString(w, "first\n"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFileAtomic(out, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if got := readString(t, out); got != "first\n" {
		t.Errorf("output is %q after a failed write", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("directory holds %d files after a failed write, want only the earlier output", len(ents))
	}
}
