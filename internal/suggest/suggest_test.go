package suggest

import "testing"

func TestClosest(t *testing.T) {
	cands := []string{"devices", "arch", "options", "spec_constants"}
	for _, c := range []struct{ in, want string }{
		{"devics", "devices"},
		{"arhc", "arch"},
		{"spec_constant", "spec_constants"},
		{"zzzzzz", ""},
		{"", ""},
	} {
		if got := Closest(c.in, cands); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if Closest("x", nil) != "" {
		t.Error("no candidates must give no suggestion")
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
