package filetable

import (
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, s string) *Table {
	t.Helper()
	tb, err := Parse("t", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func tableText(t *testing.T, tb *Table) string {
	t.Helper()
	var b strings.Builder
	if err := tb.Write(&b, true); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestOperations(t *testing.T) {
	const abc = "[A|B|C]\na0|b0|c0\na1|b1|c1\n"
	cases := []struct {
		name    string
		table   string
		op      func(*Table) error
		want    string // table text after op, or the error text
		wantErr bool
	}{
		{"replace", abc, func(tb *Table) error { return tb.ReplaceColumn("B", mustParse(t, "[X|Y]\nx0|y0\nx1|y1\n"), "Y") }, "[A|B|C]\na0|y0|c0\na1|y1|c1\n", false},
		{"replace from an untitled list ignores the source name", abc, func(tb *Table) error { return tb.ReplaceColumn("A", mustParse(t, "i0\ni1\n"), "Code") }, "[A|B|C]\ni0|b0|c0\ni1|b1|c1\n", false},
		{"replace into a one-column table ignores the name", "[Code]\nx\ny\n", func(tb *Table) error { return tb.ReplaceColumn("Other", mustParse(t, "i0\ni1\n"), "0") }, "[Code]\ni0\ni1\n", false},
		{"replace length mismatch", abc, func(tb *Table) error { return tb.ReplaceColumn("A", mustParse(t, "i0\n"), "0") }, "column length mismatch for 'A' and '0' (2 and 1 rows)", true},
		{"replace missing column", abc, func(tb *Table) error { return tb.ReplaceColumn("Z", mustParse(t, "[P|Q]\n1|2\n3|4\n"), "P") }, "Column not found: Z (the table has columns A, B, C)", true},
		{"replace missing source column", abc, func(tb *Table) error { return tb.ReplaceColumn("A", mustParse(t, "[P|Q]\n1|2\n3|4\n"), "R") }, "Column not found: R (the table has columns P, Q)", true},
		{"replace into empty table", "", func(tb *Table) error { return tb.ReplaceColumn("A", mustParse(t, "x\n"), "0") }, "empty table", true},
		{"set cell", abc, func(tb *Table) error { return tb.SetCell("C", 1, "new") }, "[A|B|C]\na0|b0|c0\na1|b1|new\n", false},
		{"set cell at row count is out of bounds", abc, func(tb *Table) error { return tb.SetCell("C", 2, "new") }, "row index out of bounds: 2 (the table has 2 rows)", true},
		{"set cell negative row", abc, func(tb *Table) error { return tb.SetCell("C", -1, "new") }, "row index out of bounds: -1 (the table has 2 rows)", true},
		{"set cell missing column", abc, func(tb *Table) error { return tb.SetCell("Z", 0, "new") }, "Column not found: Z (the table has columns A, B, C)", true},
		{"rename", abc, func(tb *Table) error { return tb.RenameColumn("B", "B,2") }, "[A|B,2|C]\na0|b0|c0\na1|b1|c1\n", false},
		{"rename to itself", abc, func(tb *Table) error { return tb.RenameColumn("B", "B") }, abc, false},
		{"rename missing", abc, func(tb *Table) error { return tb.RenameColumn("Z", "Y") }, "column not found: Z (the table has columns A, B, C)", true},
		{"rename onto existing", abc, func(tb *Table) error { return tb.RenameColumn("A", "C") }, "column already exists: C", true},
		{"extract keeps table order", abc, func(tb *Table) error { return tb.Extract([]string{"C", "A"}) }, "[A|C]\na0|c0\na1|c1\n", false},
		{"extract duplicate", abc, func(tb *Table) error { return tb.Extract([]string{"C", "C"}) }, "duplicated column names found: C", true},
		{"extract missing", abc, func(tb *Table) error { return tb.Extract([]string{"A", "Q"}) }, "column not found Q (the table has columns A, B, C)", true},
		{"merge", abc, func(tb *Table) error { return tb.Merge(mustParse(t, "[A|B|C]\n1|2|3\n")) }, abc + "1|2|3\n", false},
		{"merge column count", abc, func(tb *Table) error { return tb.Merge(mustParse(t, "[A|B]\n1|2\n")) }, "different number of columns (3 and 2)", true},
		{"merge column names", abc, func(tb *Table) error { return tb.Merge(mustParse(t, "[A|X|C]\n1|2|3\n")) }, `different column names ("B" and "X")`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := mustParse(t, c.table)
			err := c.op(tb)
			if c.wantErr {
				if err == nil || err.Error() != c.want {
					t.Fatalf("got error %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tableText(t, tb); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	tb := &Table{Columns: []string{"Code", "Symbols"}, Rows: [][]string{{"a.bc", "a.sym"}, {"b.bc", ""}}}
	var b strings.Builder
	if err := tb.Write(&b, true); err != nil || b.String() != "[Code|Symbols]\na.bc|a.sym\nb.bc|\n" {
		t.Errorf("with titles: %q %v", b.String(), err)
	}
	b.Reset()
	if err := tb.Write(&b, false); err != nil || b.String() != "a.bc|a.sym\nb.bc|\n" {
		t.Errorf("without titles: %q %v", b.String(), err)
	}
	b.Reset()
	if err := (&Table{}).Write(&b, true); err != nil || b.String() != "" {
		t.Errorf("no columns: %q %v", b.String(), err)
	}
}

func TestWriteRefusesUnreadableTables(t *testing.T) {
	cases := []struct {
		name   string
		tb     Table
		titles bool
		want   string
	}{
		{"bar in a cell", Table{[]string{"A"}, [][]string{{"x|y"}}}, true, `row 0, column "A": cell "x|y" cannot be written: a cell cannot hold '|' or a line break`},
		{"newline in a cell", Table{[]string{"A", "B"}, [][]string{{"x", "y\nz"}}}, true, `row 0, column "B": cell "y\nz" cannot be written: a cell cannot hold '|' or a line break`},
		{"bar in a title", Table{[]string{"A|B"}, nil}, true, `column title "A|B" cannot be written: a title cannot hold '|' or a line break`},
		{"cr at row end", Table{[]string{"A", "B"}, [][]string{{"x\r", "y\r"}}}, true, `row 0, column "B": a row cannot end in '\r'`},
		{"empty one-column row", Table{[]string{"A"}, [][]string{{"x"}, {""}}}, true, "row 1 of a one-column table is empty: it would be a blank line, which reading skips"},
		{"bracket first without titles", Table{[]string{"A"}, [][]string{{"[x]"}}}, false, `without titles, the first cell "[x]" cannot start with '[': it would read back as a title line`},
		{"empty single title", Table{[]string{""}, [][]string{{"x"}}}, true, "a one-column table with an empty title cannot be written: it would read back as a table with no columns"},
		{"ragged row", Table{[]string{"A", "B"}, [][]string{{"x"}}}, true, "row 0 has 1 cells, the table has 2 columns"},
	}
	for _, c := range cases {
		var b strings.Builder
		err := c.tb.Write(&b, c.titles)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if b.Len() != 0 {
			t.Errorf("%s: wrote %q before refusing", c.name, b.String())
		}
	}
	// The one exception: a bracket cell is fine after a title line.
	var b strings.Builder
	if err := (&Table{[]string{"A"}, [][]string{{"[x]"}}}).Write(&b, true); err != nil {
		t.Error(err)
	}
}

func TestColumn(t *testing.T) {
	tb := mustParse(t, "[A|B]\n1|2\n3|4\n")
	if got, ok := tb.Column("B"); !ok || !reflect.DeepEqual(got, []string{"2", "4"}) {
		t.Errorf("got %q %v", got, ok)
	}
	if _, ok := tb.Column("C"); ok {
		t.Error("found a missing column")
	}
}
