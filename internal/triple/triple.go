// Package triple reads what a target triple says about the objects its
// host links, for the config's check before anything runs (configs) and the
// wrapper that writes the object (wrapper).
package triple

import "strings"

// NonELF returns the component of a triple after its architecture that
// names a host whose objects are not ELF ("windows", "msvc", "darwin", …),
// or "" when there is none.
func NonELF(triple string) string {
	parts := strings.Split(triple, "-")
	for _, p := range parts[1:] {
		for _, nonELF := range []string{"windows", "win32", "mingw", "cygwin", "msvc", "coff", "darwin", "macos", "ios", "tvos", "watchos", "xros", "macho"} {
			if strings.HasPrefix(p, nonELF) {
				return p
			}
		}
	}
	return ""
}
