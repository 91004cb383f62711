package configs

import (
	"github.com/sycbuild/sycbuild/diag"
)

// Error is one problem in a config, at a position.
type Error = diag.Error

// ErrorList is every problem found in a config, sorted by position. Its
// Error method prints one per line.
type ErrorList = diag.List

type errorList = ErrorList

// sorted sorts l by position and drops repeats (the same message at the
// same place).
func sorted(l ErrorList) ErrorList {
	l.Sort()
	var out ErrorList
	for _, e := range l {
		if len(out) > 0 && *e == *out[len(out)-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// errorAt returns a problem at the position of the value at path in the
// config file.
func (c *Config) errorAt(path, format string, args ...any) *Error {
	return Loc{c, path}.Error(format, args...)
}
