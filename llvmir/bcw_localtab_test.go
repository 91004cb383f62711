package llvmir

import (
	"strconv"
	"testing"
)

// The table finds every name it was given across growth, holds none
// after a reset (also when the generation wraps), and gives out a slot
// left empty again. (A value's name is its key.)
func TestLocalTab(t *testing.T) {
	var tab bcLocalTab
	for round := 0; round < 3; round++ {
		tab.reset()
		if round == 2 {
			tab.gen = ^uint32(0) // the next reset wraps
			tab.reset()
		}
		locals := make([]bcLocal, 5000)
		for i := range locals {
			locals[i].name = "v" + strconv.Itoa(i+round)
			slot := tab.slot(locals[i].name)
			if *slot != nil {
				t.Fatalf("round %d: %q found before it was added", round, locals[i].name)
			}
			*slot = &locals[i]
		}
		n := 0
		tab.each(func(*bcLocal) { n++ })
		if n != len(locals) {
			t.Fatalf("round %d: each saw %d values, want %d", round, n, len(locals))
		}
		for i := range locals {
			if l := *tab.slot(locals[i].name); l != &locals[i] {
				t.Fatalf("round %d: %q found as %v", round, locals[i].name, l)
			}
		}
		if l := *tab.slot("absent"); l != nil {
			t.Fatalf("round %d: an absent name found as %v", round, l)
		}
		// The slot given out for it and left empty is given out again.
		absent := &bcLocal{name: "absent"}
		*tab.slot("absent") = absent
		if l := *tab.slot("absent"); l != absent {
			t.Fatalf("round %d: a name set found as %v", round, l)
		}
	}
}
