package esimd

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// callTarget rewrites the helper's body so that its calls of the target
// parameter fp call target instead, and returns the body and the number
// of such calls. A call through fp itself counts, and so does one through
// a reload of fp from the stack slot it was spilled to, as unoptimised
// (-O0) code calls it: "%f.addr = alloca ptr", maybe cast to another
// address space, "store ptr %f" into it once, "%1 = load ptr" from it
// (the reference optimises the helper before it substitutes the target).
// Any other use of fp becomes poison.
func callTarget(body, fp, target string) (string, int) {
	names := append([]string{fp}, reloads(body, fp)...)
	calls := 0
	var b strings.Builder
	for i := 0; i < len(body); {
		j, name := nextName(body, i, names)
		if j < 0 {
			b.WriteString(body[i:])
			break
		}
		k := j + len(name)
		b.WriteString(body[i:j])
		switch {
		case k < len(body) && isNameChar(body[k]):
			b.WriteString(name)
		case k < len(body) && body[k] == '(':
			b.WriteString(target)
			calls++
		case name == fp:
			b.WriteString("poison")
		default:
			b.WriteString(name)
		}
		i = k
	}
	return b.String(), calls
}

// nextName returns the first occurrence at or after i of one of names
// (the leftmost, the longest there), or -1.
func nextName(body string, i int, names []string) (int, string) {
	at, found := -1, ""
	for _, n := range names {
		j := strings.Index(body[i:], n)
		if j < 0 {
			continue
		}
		if j += i; at < 0 || j < at || (j == at && len(n) > len(found)) {
			at, found = j, n
		}
	}
	return at, found
}

// reloads returns the values loaded from a stack slot into which fp,
// and nothing else, is stored.
func reloads(body, fp string) []string {
	var out []string
	for _, slot := range llvmir.StackSlots([]byte(body)) {
		if v, ok := slot.StoredOnce(); ok && strings.HasSuffix(v, " "+fp) {
			out = append(out, slot.Loaded...)
		}
	}
	return out
}
