// Package filetable reads and writes file tables and implements every
// transformation of file-table-tform, the DPC++ tool that edits them.
//
// A file table is the text format (LLVM's SimpleTable) that the device-link
// stage passes between its steps: a table of strings whose cells are mostly
// paths of files. sycl-post-link writes one row per split module with the
// columns Code, Properties and Symbols; file-table-tform extracts a column
// as a file list, puts a list of compiled images back in, and so on.
//
// # Format
//
//	[Code|Properties|Symbols]      optional title line: '[' names joined by '|' ']'
//	main_0.ll|main_0.prop|main_0.sym
//	main_1.ll|main_1.prop|main_1.sym
//
// Cells are separated by '|', rows by "\n" ("\r\n" is accepted when
// reading). There is no quoting: a cell cannot hold '|' or a line break.
// Blank lines are skipped. Without a title line the columns are named
// "0", "1", … after the cell count of the first row. Reading is one pass over
// the file and the cells are substrings of one copy of it. Every read error
// names the file, line and column.
//
// # Operations (file-table-tform)
//
// Tform runs a file-table-tform command line: the first input is the table,
// the commands run in command-line order, and replace / replace_cell consume
// the further inputs left to right. The error texts are the reference
// tool's; usage errors are UsageError, missing input files SystemError.
//
// # Where this package differs from the reference (intel/llvm)
//
//   - Extract's argument errors name the extract command ("empty argument in
//     extract"); the reference says "rename" there by mistake.
//   - A row index equal to the row count is rejected ("row index out of
//     bounds"); the reference's check is off by one and writes past the last
//     row.
//   - A row index that is not a plain decimal number is a usage error; the
//     reference passes it to std::stoi, which aborts on non-numbers and reads
//     "1x" as 1.
//   - Renaming a column to a name the table already has is an error; the
//     reference makes a table with duplicate titles that it cannot read back.
//   - Writing refuses a table it could not read back identically: a cell or
//     title holding '|' or a line break, a cell ending in '\r' at the end of
//     a row, an empty row of a one-column table (it would be a blank line),
//     or, without titles, a first cell starting with '['. The reference
//     writes such tables silently corrupted.
//   - "[]" is a table with no columns, and a table with no columns is written
//     as an empty file, so that empty tables read and write back alike (the
//     reference reads "[]" as one column with an empty name).
//   - Outputs are written to a temporary file in the output's directory and
//     renamed into place, so a failed or interrupted run leaves no partial
//     output.
//
// Kept on purpose, because the DPC++ driver relies on it: when a table has a
// single column, replace uses that column whatever name is asked for (so
// --replace=Code,Code takes an untitled file list as the source).
//
// --merge=<column> and "-o -" exist only in newer versions of the reference,
// known from its tests: merge reads the tables named in the column (paths
// relative to Tform.Dir, by default the working directory), requires
// identical titles and appends their rows in row order; "-o -" writes the
// result to standard output.
package filetable
