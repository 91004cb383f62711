package filetable

import (
	"fmt"
	"os"
	"strings"

	"github.com/sycbuild/sycbuild/diag"
	"github.com/sycbuild/sycbuild/internal/basedir"
)

// SyntaxError is a malformed table, with the position of the problem
// (Line and Col 1-based; Col counts bytes).
type SyntaxError = diag.Error

// ReadFile reads the table in the file called name.
func ReadFile(name string) (*Table, error) { return ReadFileIn("", name) }

// ReadFileIn reads the table in the file called name, relative to dir when
// it is relative ("" is the working directory). Messages and positions name
// the file as given.
func ReadFileIn(dir, name string) (*Table, error) {
	data, err := os.ReadFile(basedir.Resolve(dir, name))
	if err != nil {
		return nil, fmt.Errorf("can't read %s: %w", name, underlying(err))
	}
	return Parse(name, data)
}

// underlying strips the *PathError wrapper, whose text repeats the path.
func underlying(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Parse reads a table from data; name is used in error messages. The table's
// cells share one copy of data.
func Parse(name string, data []byte) (*Table, error) {
	s := string(data)
	t := &Table{}
	first := true
	var cells []string // one backing array for every row's cells
	lines := strings.Count(s, "\n") + 1
	for lineNo := 1; len(s) > 0; lineNo++ {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
			line = strings.TrimSuffix(line, "\r") // "\r\n" ends a line too
		} else {
			line, s = s, ""
		}
		if line == "" {
			continue // blank lines are skipped
		}
		if first {
			first = false
			if line[0] == '[' {
				cols, err := parseTitles(name, lineNo, line)
				if err != nil {
					return nil, err
				}
				t.Columns = cols
				continue
			}
			t.Columns = untitledColumns(strings.Count(line, "|") + 1)
		}
		if cells == nil {
			cells = make([]string, 0, len(t.Columns)*(lines-lineNo+1))
			t.Rows = make([][]string, 0, lines-lineNo+1)
		}
		n := len(cells)
		var err error
		if cells, err = parseRow(name, lineNo, line, cells, len(t.Columns)); err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, cells[n:len(cells):len(cells)])
	}
	return t, nil
}

func parseTitles(name string, lineNo int, line string) ([]string, error) {
	if len(line) < 2 || line[len(line)-1] != ']' {
		return nil, &SyntaxError{File: name, Line: lineNo, Col: len(line) + 1, Msg: "malformed title line: it must end with ']'"}
	}
	inner := line[1 : len(line)-1]
	if inner == "" {
		return nil, nil // "[]": no columns
	}
	cols := strings.Split(inner, "|")
	col := 2
	for i, c := range cols {
		for _, d := range cols[:i] {
			if c == d {
				return nil, &SyntaxError{File: name, Line: lineNo, Col: col, Msg: "column already exists " + c}
			}
		}
		col += len(c) + 1
	}
	return cols, nil
}

// parseRow appends the ncols cells of line to cells.
func parseRow(name string, lineNo int, line string, cells []string, ncols int) ([]string, error) {
	start := len(cells)
	col := 1
	for {
		i := strings.IndexByte(line, '|')
		if len(cells)-start == ncols {
			// One cell too many: point at its start.
			return nil, &SyntaxError{File: name, Line: lineNo, Col: col, Msg: fmt.Sprintf("row size mismatch: more than %d cells, the table has %d columns", ncols, ncols)}
		}
		if i < 0 {
			cells = append(cells, line)
			col += len(line)
			break
		}
		cells = append(cells, line[:i])
		line = line[i+1:]
		col += i + 1
	}
	if n := len(cells) - start; n != ncols {
		return nil, &SyntaxError{File: name, Line: lineNo, Col: col, Msg: fmt.Sprintf("row size mismatch: %d cells, the table has %d columns", n, ncols)}
	}
	return cells, nil
}
