package filetable

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/internal/basedir"
)

// OpKind is a file-table-tform command.
type OpKind uint8

// The commands, named after their options.
const (
	Replace        OpKind = iota + 1 // --replace=<dst>,<src>: column dst := column src of the next input table
	ReplaceCell                      // --replace_cell=<col>,<row>: cell := the next input's path
	Rename                           // --rename=<old>,<new>
	Extract                          // --extract=<name>,<name>,…: keep only these columns
	CopySingleFile                   // --copy_single_file=<col>,<row>: the output is a copy of the file in that cell
	Merge                            // --merge=<col>: the output is the tables named in that column, merged
)

var opNames = [...]string{Replace: "replace", ReplaceCell: "replace_cell", Rename: "rename", Extract: "extract", CopySingleFile: "copy_single_file", Merge: "merge"}

// String returns the option name of the command.
func (k OpKind) String() string {
	if int(k) < len(opNames) && opNames[k] != "" {
		return opNames[k]
	}
	return "op" + strconv.Itoa(int(k))
}

// OpKindByName returns the command with the option name name.
func OpKindByName(name string) (OpKind, bool) {
	for k, n := range opNames {
		if n == name && n != "" {
			return OpKind(k), true
		}
	}
	return 0, false
}

// Op is one command with its argument as given on the command line.
type Op struct {
	Kind OpKind
	Arg  string
}

// UsageError is a wrong command line; file-table-tform prints it as
// "*** <tool> usage ERROR: <Msg>".
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// SystemError is a missing input file; file-table-tform prints it as
// "*** <tool> SYSTEM ERROR: <Msg>".
type SystemError struct{ Msg string }

func (e *SystemError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// Tform is one run of file-table-tform.
type Tform struct {
	// Inputs are the input files: the table to transform, then one file per
	// replace / replace_cell command, in command order.
	Inputs []string
	// Ops are the commands, in the order they run.
	Ops []Op
	// Output is the output file; "-" means Stdout.
	Output string
	// DropTitles writes the output without its title line.
	DropTitles bool
	// Stdout receives the output when Output is "-".
	Stdout io.Writer
	// Dir is the directory relative paths are relative to: those of Inputs
	// and Output, and those the tables name (merge, copy_single_file); ""
	// is the working directory. Paths written into the output table, and
	// named in messages, stay as given.
	Dir string
}

// step is a parsed command.
type step struct {
	Op
	a, b  string   // the two parts of a pair argument
	names []string // extract
	row   int      // replace_cell, copy_single_file; -1: "the only row"
	input string   // replace, replace_cell: the input it consumes
}

// Run checks the command line, then reads the table, runs the commands and
// writes the output. Command-line errors come before any file is read.
func (t *Tform) Run() error {
	steps, err := t.plan()
	if err != nil {
		return err
	}
	table, err := ReadFileIn(t.Dir, t.Inputs[0])
	if err != nil {
		return err
	}
	for _, s := range steps {
		if s.Kind == CopySingleFile {
			return t.copySingleFile(table, s)
		}
		if table, err = s.apply(t.Dir, table); err != nil {
			if ce, ok := err.(*ColumnError); ok {
				// Name the table: the one edited, or the one that replaces
				// a column of it.
				ce.File = t.Inputs[0]
				if ce.Source {
					ce.File = s.input
				}
			}
			return err
		}
	}
	if t.Output == "-" {
		return table.Write(t.Stdout, !t.DropTitles)
	}
	return table.WriteFile(basedir.Resolve(t.Dir, t.Output), !t.DropTitles)
}

// plan parses every command's argument, checks the command order and assigns
// the inputs, in the reference's order of checks.
func (t *Tform) plan() ([]step, error) {
	steps := make([]step, len(t.Ops))
	for i, op := range t.Ops {
		s, err := parseOp(op)
		if err != nil {
			return nil, err
		}
		steps[i] = s
	}
	for i, s := range steps {
		if s.Kind == CopySingleFile && i != len(steps)-1 {
			return nil, usagef("copy_single_file must be the last transformation")
		}
	}
	if len(t.Inputs) == 0 {
		return nil, usagef("no inputs")
	}
	next := 1
	for i := range steps {
		s := &steps[i]
		if s.Kind != Replace && s.Kind != ReplaceCell {
			continue
		}
		if next >= len(t.Inputs) {
			return nil, usagef("no input for '%s' command", s.Kind)
		}
		s.input = t.Inputs[next]
		next++
		if _, err := os.Stat(basedir.Resolve(t.Dir, s.input)); err != nil {
			return nil, &SystemError{Msg: "file not found: " + s.input}
		}
	}
	return steps, nil
}

func parseOp(op Op) (step, error) {
	s := step{Op: op, row: -1}
	if op.Arg == "" {
		return s, usagef("empty argument in %s", op.Kind)
	}
	var err error
	switch op.Kind {
	case Replace, ReplaceCell, CopySingleFile:
		parts := strings.Split(op.Arg, ",")
		if op.Kind == CopySingleFile && len(parts) == 1 {
			s.a = parts[0] // older form: the row is the only one
			return s, nil
		}
		if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			return s, usagef("invalid argument in %s", op.Kind)
		}
		s.a, s.b = parts[0], parts[1]
		if op.Kind != Replace {
			s.row, err = parseRowIndex(op.Kind, s.b)
		}
	case Rename:
		var ok bool
		s.a, s.b, ok = strings.Cut(op.Arg, ",")
		if !ok || s.a == "" || s.b == "" {
			return s, usagef("invalid argument in %s", op.Kind)
		}
	case Extract:
		s.names = strings.Split(op.Arg, ",")
		for _, n := range s.names {
			if n == "" {
				return s, usagef("empty name in %s", op.Kind)
			}
		}
	case Merge:
		s.a = op.Arg
	default:
		return s, usagef("unknown command %s", op.Kind)
	}
	return s, err
}

// parseRowIndex reads a row index: a plain decimal number.
func parseRowIndex(kind OpKind, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || v[0] == '+' || v[0] == '-' {
		return 0, usagef("invalid row index in %s: '%s'", kind, v)
	}
	return n, nil
}

// apply runs one command on table and returns the resulting table; files
// are read relative to dir.
func (s *step) apply(dir string, table *Table) (*Table, error) {
	switch s.Kind {
	case Replace:
		src, err := ReadFileIn(dir, s.input)
		if err != nil {
			return nil, err
		}
		return table, table.ReplaceColumn(s.a, src, s.b)
	case ReplaceCell:
		return table, table.SetCell(s.a, s.row, s.input)
	case Rename:
		return table, table.RenameColumn(s.a, s.b)
	case Extract:
		return table, table.Extract(s.names)
	case Merge:
		return mergeTables(dir, table, s.a)
	}
	return nil, fmt.Errorf("unknown command %s", s.Kind)
}

// mergeTables reads the tables named in column col, in row order, and merges
// them into one; the paths are relative to dir.
func mergeTables(dir string, table *Table, col string) (*Table, error) {
	paths, ok := table.Column(col)
	if !ok {
		return nil, table.columnError("column not found: %s", col)
	}
	out := &Table{}
	for i, p := range paths {
		t, err := ReadFileIn(dir, p)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = t
			continue
		}
		if err := out.Merge(t); err != nil {
			return nil, fmt.Errorf("merging %s: %w", p, err)
		}
	}
	return out, nil
}

// copySingleFile makes the output a copy of the file named in one cell.
func (t *Tform) copySingleFile(table *Table, s step) error {
	row := s.row
	if row < 0 { // "<col>" alone: the table must have a single row
		if len(table.Rows) != 1 {
			return usagef("copy_single_file=%s needs a table with exactly one row, this one has %d", s.a, len(table.Rows))
		}
		row = 0
	}
	if row >= len(table.Rows) {
		return usagef("row index is out of bounds")
	}
	var path string
	if c := table.ColumnIndex(s.a); c >= 0 {
		path = table.Rows[row][c]
	}
	if path == "" {
		return usagef("no file found in specified column")
	}
	in, err := os.Open(basedir.Resolve(t.Dir, path))
	if err != nil {
		return fmt.Errorf("'%s': %w", path, underlying(err))
	}
	defer in.Close()
	if t.Output == "-" {
		_, err = io.Copy(t.Stdout, in)
		return err
	}
	return WriteFileAtomic(basedir.Resolve(t.Dir, t.Output), func(w io.Writer) error {
		if _, err := io.Copy(w, in); err != nil {
			return fmt.Errorf("copying '%s' to '%s': %w", path, t.Output, err)
		}
		return nil
	})
}
