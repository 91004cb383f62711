package split

import (
	"fmt"
	"strings"
)

// SymbolTable is the text of a module's .sym file: the names of its entry
// points, one per line, each ending with a newline, in module order; empty
// for a module without entry points. A name containing a line break
// cannot be written (a reader would see two symbols, or a fake one), and
// is an error, as an unwritable property name is for a .prop file.
func (p *Part) SymbolTable() (string, error) {
	var b strings.Builder
	for _, e := range p.Entries {
		if strings.ContainsAny(e.Name, "\n\r") {
			return "", fmt.Errorf("kernel name %q cannot be written in a .sym file (it contains a line break)", e.Name)
		}
		b.WriteString(e.Name)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
