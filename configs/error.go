package configs

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a config, at a position.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) where() string { return fmt.Sprintf("%s:%d:%d", e.File, e.Pos.Line, e.Pos.Col) }

func (e *Error) Error() string { return e.where() + ": " + e.Msg }

// ErrorList is every problem found in a config, sorted by position. Its
// Error method prints one per line.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

type errorList = ErrorList

func (l ErrorList) sorted() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	// The same message at the same place once.
	var out ErrorList
	for _, e := range l {
		if len(out) > 0 && *e == *out[len(out)-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}
