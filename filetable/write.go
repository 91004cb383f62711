package filetable

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

var tempSeq atomic.Uint64

// WriteFileAtomic creates the file called name with the bytes fill writes:
// it writes a temporary file in the same directory and renames it into
// place, so that readers never see a partial file and a failure leaves the
// old file (or none). The file gets the usual mode (0666 less the umask).
func WriteFileAtomic(name string, fill func(io.Writer) error) (err error) {
	dir, base := filepath.Split(name)
	var f *os.File
	for {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp%d-%d", base, os.Getpid(), tempSeq.Add(1)))
		f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, os.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("'%s': %w", name, underlying(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("'%s': %w", name, underlying(err))
	}
	if err = os.Rename(f.Name(), name); err != nil {
		return fmt.Errorf("'%s': %w", name, underlying(err))
	}
	return nil
}
