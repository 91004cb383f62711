package diag

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "a.ll", Line: 3, Col: 7, Msg: "expected type"}, "a.ll:3:7: expected type"},
		{Error{File: "x.prop", Msg: "invalid property set registry"}, "x.prop: invalid property set registry"},
		{Error{File: "t.yaml", Line: 1, Col: 1, Msg: "m: with: colons"}, "t.yaml:1:1: m: with: colons"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%#v: got %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestListSort(t *testing.T) {
	// Line 10 after line 9 (not as text), column 2 before column 10, file
	// before line, and the two problems at b.ll:2:5 in the order found.
	l := List{
		{File: "b.ll", Line: 10, Col: 1, Msg: "1"},
		{File: "b.ll", Line: 2, Col: 5, Msg: "2"},
		{File: "a.ll", Line: 30, Col: 1, Msg: "3"},
		{File: "b.ll", Line: 9, Col: 10, Msg: "4"},
		{File: "b.ll", Line: 9, Col: 2, Msg: "5"},
		{File: "b.ll", Line: 2, Col: 5, Msg: "6"},
		{File: "a.ll", Msg: "7"},
	}
	l.Sort()
	want := "a.ll: 7\na.ll:30:1: 3\nb.ll:2:5: 2\nb.ll:2:5: 6\nb.ll:9:2: 5\nb.ll:9:10: 4\nb.ll:10:1: 1"
	if got := l.Error(); got != want {
		t.Errorf("sorted:\n%s\nwant:\n%s", got, want)
	}
}

func TestListErr(t *testing.T) {
	if err := List(nil).Err(); err != nil {
		t.Errorf("empty list: Err() = %v, want nil", err)
	}
	e := &Error{File: "f", Line: 1, Col: 2, Msg: "m"}
	err := List{e}.Err()
	if err == nil || err.Error() != "f:1:2: m" {
		t.Fatalf("one error: Err() = %v", err)
	}
	var got *Error
	if !errors.As(err, &got) || got != e {
		t.Errorf("errors.As does not find the list's error")
	}
}

func TestSortErrors(t *testing.T) {
	other1 := errors.New("command line: -o: is the config file")
	other2 := errors.New("no target can be built")
	errs := []error{
		other1,
		&Error{File: "t.yaml", Line: 12, Col: 3, Msg: "c"},
		fmt.Errorf("wrapped: %w", &Error{File: "in.ll", Line: 1, Col: 1, Msg: "d"}),
		other2,
		&Error{File: "t.yaml", Line: 4, Col: 3, Msg: "b"},
	}
	SortErrors(errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		"wrapped: in.ll:1:1: d",
		"t.yaml:4:3: b",
		"t.yaml:12:3: c",
		"command line: -o: is the config file",
		"no target can be built",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
