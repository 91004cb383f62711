package basedir

import "testing"

func TestResolve(t *testing.T) {
	for _, c := range []struct{ dir, path, want string }{
		{"", "a/b", "a/b"},
		{"proj", "a/b", "proj/a/b"},
		{"proj", "/abs/x", "/abs/x"},
		{"proj", "../src/k.ll", "src/k.ll"},
	} {
		if got := Resolve(c.dir, c.path); got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.dir, c.path, got, c.want)
		}
	}
}
