package filetable

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Write writes the table in the file-table format, with the title line when
// titles is true. It refuses a table that would not read back identically
// (see the package documentation) before writing anything.
func (t *Table) Write(w io.Writer, titles bool) error {
	if err := t.checkWritable(titles); err != nil {
		return err
	}
	if len(t.Columns) == 0 {
		return nil
	}
	bw := bufio.NewWriter(w)
	if titles {
		bw.WriteByte('[')
		writeJoined(bw, t.Columns)
		bw.WriteString("]\n")
	}
	for _, r := range t.Rows {
		writeJoined(bw, r)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func writeJoined(bw *bufio.Writer, cells []string) {
	for i, c := range cells {
		if i > 0 {
			bw.WriteByte('|')
		}
		bw.WriteString(c)
	}
}

// checkWritable reports the first cell or title the format cannot carry.
func (t *Table) checkWritable(titles bool) error {
	if titles {
		for _, c := range t.Columns {
			if strings.ContainsAny(c, "|\n") {
				return fmt.Errorf("column title %q cannot be written: a title cannot hold '|' or a line break", c)
			}
		}
		if len(t.Columns) == 1 && t.Columns[0] == "" {
			return errors.New("a one-column table with an empty title cannot be written: it would read back as a table with no columns")
		}
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return fmt.Errorf("row %d has %d cells, the table has %d columns", i, len(r), len(t.Columns))
		}
		for j, c := range r {
			if strings.ContainsAny(c, "|\n") {
				return fmt.Errorf("row %d, column %q: cell %q cannot be written: a cell cannot hold '|' or a line break", i, t.Columns[j], c)
			}
		}
		if len(r) > 0 && strings.HasSuffix(r[len(r)-1], "\r") {
			return fmt.Errorf("row %d, column %q: a row cannot end in '\\r'", i, t.Columns[len(r)-1])
		}
		if len(r) == 1 && r[0] == "" {
			return fmt.Errorf("row %d of a one-column table is empty: it would be a blank line, which reading skips", i)
		}
	}
	if !titles && len(t.Rows) > 0 && len(t.Rows[0]) > 0 && strings.HasPrefix(t.Rows[0][0], "[") {
		return fmt.Errorf("without titles, the first cell %q cannot start with '[': it would read back as a title line", t.Rows[0][0])
	}
	return nil
}

// WriteFile writes the table to the file called name, atomically.
func (t *Table) WriteFile(name string, titles bool) error {
	if err := t.checkWritable(titles); err != nil {
		return err
	}
	return WriteFileAtomic(name, func(w io.Writer) error { return t.Write(w, titles) })
}

// WriteFileAtomic creates the file called name with the bytes fill writes,
// through a temporary file renamed into place (internal/atomicfile): readers
// never see a partial file and a failure leaves the old file (or none).
// File-system errors read as LLVM's FileError: '<file>': <errno text>.
func WriteFileAtomic(name string, fill func(io.Writer) error) error {
	err := atomicfile.Write(name, fill)
	var fe *atomicfile.Error
	if errors.As(err, &fe) {
		return fmt.Errorf("'%s': %w", name, fe.Err)
	}
	return err
}
