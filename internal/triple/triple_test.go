package triple

import "testing"

func TestNonELF(t *testing.T) {
	for triple, want := range map[string]string{
		"x86_64-unknown-linux-gnu":  "",
		"aarch64-unknown-linux-gnu": "",
		"x86_64-pc-windows-msvc":    "windows",
		"x86_64-w64-mingw32":        "mingw32",
		"arm64-apple-darwin23.1.0":  "darwin23.1.0",
		"x86_64-apple-macosx14.0":   "macosx14.0",
		"windows-unknown-linux":     "", // the architecture is not looked at
	} {
		if got := NonELF(triple); got != want {
			t.Errorf("NonELF(%q) = %q, want %q", triple, got, want)
		}
	}
}
