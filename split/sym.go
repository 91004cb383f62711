package split

import "strings"

// SymbolTable is the text of a module's .sym file: the names of its entry
// points, one per line, each ending with a newline, in module order; empty
// for a module without entry points.
func (p *Part) SymbolTable() string {
	var b strings.Builder
	for _, e := range p.Entries {
		b.WriteString(e.Name)
		b.WriteByte('\n')
	}
	return b.String()
}
