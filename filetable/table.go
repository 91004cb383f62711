package filetable

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Table is a file table: column titles and rows of cells. Every row has
// exactly len(Columns) cells.
type Table struct {
	Columns []string
	Rows    [][]string
}

// ColumnIndex returns the index of the column called name, or -1.
func (t *Table) ColumnIndex(name string) int {
	for i, c := range t.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Column returns the cells of the column called name, or nil and false.
func (t *Table) Column(name string) ([]string, bool) {
	c := t.ColumnIndex(name)
	if c < 0 {
		return nil, false
	}
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r[c]
	}
	return out, true
}

// ColumnError is a column a table does not have. Its text is the
// reference's ("column not found: X", with the reference's spelling for
// each command), followed by the columns the table has, and by the table's
// file once the caller knows it (see Tform.Run).
type ColumnError struct {
	Ref     string   // the reference's message ("Column not found: X")
	Columns []string // the table's columns
	File    string   // the file the table came from; "" when unknown
	// Source says the column was looked up in the table that replaces
	// one (the second table of --replace), not in the edited one.
	Source bool
}

func (e *ColumnError) Error() string {
	where := "the table"
	if e.File != "" {
		where = "the table of " + e.File
	}
	return fmt.Sprintf("%s (%s has columns %s)", e.Ref, where, strings.Join(e.Columns, ", "))
}

func (t *Table) columnError(format, col string) *ColumnError {
	return &ColumnError{Ref: fmt.Sprintf(format, col), Columns: append([]string(nil), t.Columns...)}
}

// ErrEmptyTable is returned by operations that need at least one column.
var ErrEmptyTable = errors.New("empty table")

// columnForReplace is the column replace works on: by name, except that a
// one-column table's only column is used whatever the name (the DPC++ driver
// relies on this to put an untitled file list into a named column).
func (t *Table) columnForReplace(name string) (int, error) {
	if len(t.Columns) == 0 {
		return -1, ErrEmptyTable
	}
	if len(t.Columns) == 1 {
		return 0, nil
	}
	if c := t.ColumnIndex(name); c >= 0 {
		return c, nil
	}
	return -1, t.columnError("Column not found: %s", name)
}

// ReplaceColumn replaces the cells of column dst with those of column
// srcName of src. Both tables must have the same number of rows.
func (t *Table) ReplaceColumn(dst string, src *Table, srcName string) error {
	d, err := t.columnForReplace(dst)
	if err != nil {
		return err
	}
	s, err := src.columnForReplace(srcName)
	if ce, ok := err.(*ColumnError); ok {
		ce.Source = true
	}
	if err != nil {
		return err
	}
	if len(t.Rows) != len(src.Rows) {
		return fmt.Errorf("column length mismatch for '%s' and '%s' (%d and %d rows)", dst, srcName, len(t.Rows), len(src.Rows))
	}
	for i, r := range t.Rows {
		r[d] = src.Rows[i][s]
	}
	return nil
}

// SetCell sets the cell of column col in row row (0-based).
func (t *Table) SetCell(col string, row int, val string) error {
	if len(t.Columns) == 0 {
		return ErrEmptyTable
	}
	if row < 0 || row >= len(t.Rows) {
		return fmt.Errorf("row index out of bounds: %d (the table has %d rows)", row, len(t.Rows))
	}
	c := t.ColumnIndex(col)
	if c < 0 {
		return t.columnError("Column not found: %s", col)
	}
	t.Rows[row][c] = val
	return nil
}

// RenameColumn renames column old to new.
func (t *Table) RenameColumn(old, new string) error {
	c := t.ColumnIndex(old)
	if c < 0 {
		return t.columnError("column not found: %s", old)
	}
	if old == new {
		return nil
	}
	if t.ColumnIndex(new) >= 0 {
		return fmt.Errorf("column already exists: %s", new)
	}
	t.Columns[c] = new
	return nil
}

// Extract keeps only the named columns. They stay in the table's own order,
// not in the order of names (as the reference's peelColumns does).
func (t *Table) Extract(names []string) error {
	keep := make([]bool, len(t.Columns))
	for i, n := range names {
		for _, m := range names[:i] {
			if m == n {
				return errors.New("duplicated column names found: " + n)
			}
		}
		c := t.ColumnIndex(n)
		if c < 0 {
			return t.columnError("column not found %s", n)
		}
		keep[c] = true
	}
	cols := make([]int, 0, len(names))
	for c, k := range keep {
		if k {
			cols = append(cols, c)
		}
	}
	t.Columns = pick(t.Columns, cols)
	for i, r := range t.Rows {
		t.Rows[i] = pick(r, cols)
	}
	return nil
}

func pick(cells []string, cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = cells[c]
	}
	return out
}

// Merge appends the rows of other, which must have the same titles.
func (t *Table) Merge(other *Table) error {
	if len(t.Columns) != len(other.Columns) {
		return fmt.Errorf("different number of columns (%d and %d)", len(t.Columns), len(other.Columns))
	}
	for i, c := range t.Columns {
		if other.Columns[i] != c {
			return fmt.Errorf("different column names (%q and %q)", c, other.Columns[i])
		}
	}
	t.Rows = append(t.Rows, other.Rows...)
	return nil
}

// untitledColumns returns the names of an untitled table's n columns:
// "0", "1", ….
func untitledColumns(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}
