// Package filetabletform is the command line of sycbuild's file-table-tform:
// the DPC++ tool's options, error texts and exit status over package
// filetable.
package filetabletform

import (
	"errors"
	"fmt"
	"io"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
)

const overview = `File table transformation tool.
Reads the file table given as the first input, applies the transformations in
command-line order and writes the result to -o. A file table is lines of
'|'-separated cells, with an optional title line "[name|name|...]".
replace and replace_cell take their input from the further input files, left
to right; copy_single_file must come last and makes -o a copy of one cell's
file.`

// commands are the list options that are transformations, in --help order.
var commands = []struct {
	kind      filetable.OpKind
	valueDesc string
	help      string
}{
	{filetable.Replace, "dst,src", "Replace column <dst> with column <src> of the next input table"},
	{filetable.ReplaceCell, "column,row", "Set the cell at <column> and <row> (from 0) to the name of the next input file"},
	{filetable.Rename, "old,new", "Rename column <old> to <new>"},
	{filetable.Extract, "name,name,...", "Keep only the named columns (in the table's order)"},
	{filetable.CopySingleFile, "column,row", "Copy the file named in that cell to the output instead of writing a table"},
	{filetable.Merge, "column", "Output the tables named in <column> (one per row, same titles), rows appended in order"},
}

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild file-table-tform ...).
const Name = "file-table-tform"

// Main runs file-table-tform with its DPC++ command line: the adapter from
// that command line to filetable.Tform and Run.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	t, err := Parse(argv0, args, stdio.Out)
	if err != nil {
		return clopt.Report(stdio.Err, err)
	}
	return Run(argv0, "", t, stdio)
}

// Parse parses a file-table-tform command line (without the program name)
// into the run it describes; argv0 names the tool in errors. On --help it
// prints to out and returns clopt.ErrHelp.
func Parse(argv0 string, args []string, out io.Writer) (filetable.Tform, error) {
	s := clopt.New(argv0, overview, "[options] <input filenames>")
	s.Category = "file-table-tform options"
	output := s.String("o", "filename", "", "Output filename (\"-\" for standard output)")
	dropTitles := s.Bool("drop_titles", "Write the output without the title line")
	for _, c := range commands {
		s.List(c.kind.String(), c.valueDesc, c.help)
	}
	if err := s.Parse(args, out); err != nil {
		return filetable.Tform{}, err
	}
	if !s.Given("o") {
		return filetable.Tform{}, &clopt.Error{Msg: argv0 + ": for the -o option: must be specified at least once!"}
	}
	t := filetable.Tform{
		Inputs:     s.PositionalValues(),
		Output:     *output,
		DropTitles: *dropTitles,
	}
	for _, occ := range s.Occurrences() {
		if k, ok := filetable.OpKindByName(occ.Name); ok {
			t.Ops = append(t.Ops, filetable.Op{Kind: k, Arg: occ.Value})
		}
	}
	return t, nil
}

// Args renders t as the command line (without the program name) that
// Parse reads back as t: the commands in order, --drop_titles, -o and the
// inputs.
func Args(t filetable.Tform) []string {
	var a []string
	for _, op := range t.Ops {
		a = append(a, "--"+op.Kind.String()+"="+op.Arg)
	}
	if t.DropTitles {
		a = append(a, "--drop_titles")
	}
	a = append(a, "-o", t.Output)
	return append(a, t.Inputs...)
}

// Run runs file-table-tform as t says, its relative paths relative to dir
// ("" is the working directory; t.Stdout and t.Dir are set from stdio and
// dir), and returns the exit status, printing errors to stdio.Err as the
// DPC++ tool does, argv0 naming the tool.
func Run(argv0, dir string, t filetable.Tform, stdio clopt.Stdio) int {
	t.Stdout, t.Dir = stdio.Out, dir
	err := t.Run()
	if err == nil {
		return 0
	}
	var usage *filetable.UsageError
	var system *filetable.SystemError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintf(stdio.Err, "*** %s usage ERROR: %s\n", argv0, usage.Msg)
	case errors.As(err, &system):
		fmt.Fprintf(stdio.Err, "*** %s SYSTEM ERROR: %s\n", argv0, system.Msg)
	default:
		fmt.Fprintf(stdio.Err, "%s: error: %s\n", argv0, err)
	}
	return 1
}
