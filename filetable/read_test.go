package filetable

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name string
		in   string
		cols []string
		rows [][]string
	}{
		{"titled", "[A|B]\na|b\nc|d\n", []string{"A", "B"}, [][]string{{"a", "b"}, {"c", "d"}}},
		{"untitled", "a|b|c\nd|e|f", []string{"0", "1", "2"}, [][]string{{"a", "b", "c"}, {"d", "e", "f"}}},
		{"crlf and blank lines", "\r\n[A]\r\n\nx\r\n\r\ny\n", []string{"A"}, [][]string{{"x"}, {"y"}}},
		{"empty cells", "[A|B|C]\n||\n|b|\n", []string{"A", "B", "C"}, [][]string{{"", "", ""}, {"", "b", ""}}},
		{"empty file", "", nil, nil},
		{"only blank lines", "\n\r\n\n", nil, nil},
		{"no columns", "[]\n", nil, nil},
		{"titles only", "[Code|Symbols]\n", []string{"Code", "Symbols"}, nil},
		{"lone cr stays in the cell", "a\rb\nc\r", []string{"0"}, [][]string{{"a\rb"}, {"c\r"}}},
		{"later bracket is data", "x\n[y]\n", []string{"0"}, [][]string{{"x"}, {"[y]"}}},
		{"spaces are kept", " a | b \n", []string{"0", "1"}, [][]string{{" a ", " b "}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Parse("t.txt", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tb.Columns, c.cols) || !reflect.DeepEqual(tb.Rows, c.rows) {
				t.Errorf("got %q %q, want %q %q", tb.Columns, tb.Rows, c.cols, c.rows)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"[A|B\na|b\n", "t.txt:1:5: malformed title line: it must end with ']'"},
		{"\n\n[\n", "t.txt:3:2: malformed title line: it must end with ']'"},
		{"[A|B|A]\n", "t.txt:1:6: column already exists A"},
		{"[A|B]\na|b\nc\n", "t.txt:3:2: row size mismatch: 1 cells, the table has 2 columns"},
		{"[A|B]\na|b\r\n\r\nc|d|e\n", "t.txt:4:5: row size mismatch: more than 2 cells, the table has 2 columns"},
		{"a|b\nc|d|\n", "t.txt:2:5: row size mismatch: more than 2 cells, the table has 2 columns"},
		{"[]\nx\n", "t.txt:2:1: row size mismatch: more than 0 cells, the table has 0 columns"},
	}
	for _, c := range cases {
		_, err := Parse("t.txt", []byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope.txt"))
	if err == nil || !strings.HasPrefix(err.Error(), "can't read ") || !strings.HasSuffix(err.Error(), "nope.txt: no such file or directory") {
		t.Errorf("got %v", err)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error does not wrap ErrNotExist: %v", err)
	}
}

// FuzzParse checks that the parser never panics and that every table it
// accepts is either refused by Write or written so that it reads back the
// same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[A|B|C|D]\naaa|bbb|100|XXX\nccc|ddd|200|YYY\n",
		"a|b\r\n\r\nc|d", "[]", "[", "[A|A]", "x\r", "[Code|Properties|Symbols]\na.ll|a.prop|a.sym\n",
		"|\n||\n", "[x]\n\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse("fuzz", data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for _, r := range tb.Rows {
			if len(r) != len(tb.Columns) {
				t.Fatalf("row %q does not have %d cells", r, len(tb.Columns))
			}
		}
		for _, titles := range []bool{true, false} {
			var b strings.Builder
			if err := tb.Write(&b, titles); err != nil {
				continue
			}
			back, err := Parse("again", []byte(b.String()))
			if err != nil {
				t.Fatalf("written table %q does not read back: %v", b.String(), err)
			}
			if !reflect.DeepEqual(back.Rows, tb.Rows) {
				t.Fatalf("rows changed: %q -> %q", tb.Rows, back.Rows)
			}
			if titles && !reflect.DeepEqual(back.Columns, tb.Columns) && len(tb.Columns) > 0 {
				t.Fatalf("titles changed: %q -> %q", tb.Columns, back.Columns)
			}
		}
	})
}
