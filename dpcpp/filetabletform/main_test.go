package filetabletform

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
)

func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = Main("file-table-tform", args, clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	for n, c := range map[string]string{
		"a.txt":  "[A|B|C|D]\naaa|bbb|100|XXX\nccc|ddd|200|YYY\n",
		"a0.txt": "[11|12]\n00|11\n22|33\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		args       []string
		code       int
		out, err   string
		outputFile string // expected content of out.txt, if any
	}{
		// Commands of different kinds run in command-line order: the
		// rename (second) applies to the extract's result (first).
		{[]string{"--extract=A,C", "a.txt", "-o", "-", "--rename=A,AA"}, 0, "[AA|C]\naaa|100\nccc|200\n", "", ""},
		{[]string{"--rename=A,AA", "--extract=AA,C", "a.txt", "-o=-"}, 0, "[AA|C]\naaa|100\nccc|200\n", "", ""},
		{[]string{"--extract=AA,C", "--rename=A,AA", "a.txt", "-o=-"}, 1, "", "file-table-tform: error: column not found AA (the table of a.txt has columns A, B, C, D)\n", ""},
		{[]string{"-replace", "A,11", "--drop_titles", "a.txt", "a0.txt", "-o", "out.txt"}, 0, "", "", "00|bbb|100|XXX\n22|ddd|200|YYY\n"},
		{[]string{"--extract=A,,C", "a.txt", "-o", "out.txt"}, 1, "", "*** file-table-tform usage ERROR: empty name in extract\n", ""},
		{[]string{"--replace=A,11", "a.txt", "missing.txt", "-o", "out.txt"}, 1, "", "*** file-table-tform SYSTEM ERROR: file not found: missing.txt\n", ""},
		{[]string{"a.txt"}, 1, "", "file-table-tform: for the -o option: must be specified at least once!\n", ""},
		{[]string{"--extrakt=A", "a.txt", "-o", "x"}, 1, "", "file-table-tform: Unknown command line argument '--extrakt=A'.  Try: 'file-table-tform --help'\nfile-table-tform: Did you mean '--extract'?\n", ""},
		{[]string{"nope.txt", "-o", "x"}, 1, "", "file-table-tform: error: can't read nope.txt: no such file or directory\n", ""},
	}
	for _, c := range cases {
		os.Remove(filepath.Join(dir, "out.txt"))
		code, out, errs := run(t, dir, c.args...)
		if code != c.code || out != c.out || errs != c.err {
			t.Errorf("%q: got %d %q %q, want %d %q %q", c.args, code, out, errs, c.code, c.out, c.err)
		}
		if c.outputFile != "" {
			b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
			if err != nil || string(b) != c.outputFile {
				t.Errorf("%q: out.txt = %q %v, want %q", c.args, b, err, c.outputFile)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := run(t, t.TempDir(), "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, opt := range []string{"--replace=<dst,src>", "--replace_cell=<column,row>", "--rename=<old,new>", "--extract=<name,name,...>", "--copy_single_file=<column,row>", "--merge=<column>", "--drop_titles", "-o <filename>", "file-table-tform options:"} {
		if !strings.Contains(out, opt) {
			t.Errorf("--help lacks %q:\n%s", opt, out)
		}
	}
}
