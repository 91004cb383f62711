// Package diag is the one form of a problem found in an input at a
// position: a file, a 1-based line and column, and a message. The readers
// of the project's text formats (LLVM IR, targets.yaml, file tables, .prop
// files) report their problems as *Error, and a list of them sorts by
// position, so that a caller collecting problems from several readers
// orders them by their fields, never by parsing their text.
package diag

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem in an input. Line and Col are 1-based (the column
// counts bytes); Line 0 means the problem concerns the whole file.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error formats the problem as "file:line:col: msg", or "file: msg" when
// Line is 0.
func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// Compare orders a and b by file, then line, then column; it returns a
// negative number when a comes first, a positive one when b does, and 0
// when they are at the same position.
func Compare(a, b *Error) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Col, b.Col)
}

// List is several problems, found together.
type List []*Error

// Sort orders the list by file, line and column; problems at the same
// position keep their order.
func (l List) Sort() { slices.SortStableFunc(l, Compare) }

// Err returns nil for an empty list and the list otherwise.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error prints one problem per line ("no errors" for an empty list).
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// SortErrors orders errs as a report of them reads best: the problems at a
// position (those errors.As finds an *Error in) sorted by file, line and
// column, then the other errors in the order they were found.
func SortErrors(errs []error) {
	pos := func(err error) *Error {
		var e *Error
		if errors.As(err, &e) {
			return e
		}
		return nil
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		pa, pb := pos(a), pos(b)
		switch {
		case pa == nil && pb == nil:
			return 0
		case pa == nil:
			return 1
		case pb == nil:
			return -1
		}
		return Compare(pa, pb)
	})
}
