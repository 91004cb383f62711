package split

import (
	"fmt"
	"strings"
)

// SymbolTable is the text of a module's .sym file: the names of its entry
// points, one per line, each ending with a newline, in module order; empty
// for a module without entry points. A name containing a line break or a
// NUL cannot be written (a reader would see two symbols, a fake one, or a
// name cut short), and is an error, as an unwritable property name is for
// a .prop file.
func (p *Part) SymbolTable() (string, error) {
	var b strings.Builder
	for _, e := range p.Entries {
		if strings.ContainsAny(e.Name, "\n\r\x00") {
			return "", fmt.Errorf("kernel name %q cannot be written in a .sym file (it contains a line break or a NUL)", e.Name)
		}
		b.WriteString(e.Name)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
