package configs

import (
	"errors"
	"fmt"

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

// Errorf returns a problem with the value at path (see Where): a *Error at
// its position in the config file, or, for a value the command line gave,
// an error naming the flag ("command line: -o: …").
func (c *Config) Errorf(path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if flag := c.Flag(path); flag != "" {
		return errors.New("command line: " + flag + ": " + msg)
	}
	return c.ErrorAt(path, "%s", msg)
}

// ErrorAt returns a problem at the position of the value at path in the
// config file (see Pos).
func (c *Config) ErrorAt(path, format string, args ...any) *Error {
	p := c.Pos(path)
	return &Error{File: c.File, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}
