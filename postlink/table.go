package postlink

import "strings"

// The column titles of the output table; the names are shared with the
// clang driver and clang-offload-wrapper.
const (
	ColCode       = "Code"
	ColProperties = "Properties"
	ColSymbols    = "Symbols"
)

// Row is one output module's cells: the IR file, its property file ("" when
// properties are off) and its symbol file ("" when symbols are off).
type Row struct {
	Code, Properties, Symbols string
}

// Table is one output file table in the SimpleTable text format:
// "[Code|Properties|Symbols]" then one "a|b|c" line per row.
type Table struct {
	Output Output
	props  bool
	syms   bool
	rows   []Row
}

func newTable(out Output, props, syms bool) *Table {
	return &Table{Output: out, props: props, syms: syms}
}

// Add appends a row.
func (t *Table) Add(r Row) { t.rows = append(t.rows, r) }

// Rows returns the rows added so far.
func (t *Table) Rows() []Row { return t.rows }

// String renders the table.
func (t *Table) String() string {
	var b strings.Builder
	b.WriteString("[" + ColCode)
	if t.props {
		b.WriteString("|" + ColProperties)
	}
	if t.syms {
		b.WriteString("|" + ColSymbols)
	}
	b.WriteString("]\n")
	for _, r := range t.rows {
		b.WriteString(r.Code)
		if t.props {
			b.WriteString("|" + r.Properties)
		}
		if t.syms {
			b.WriteString("|" + r.Symbols)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
