package esimd

import (
	"regexp"
	"strings"
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

var (
	reAlloca = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = alloca ptr\b`)
	reCast   = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = addrspacecast ptr (%[-\w.$]+) to ptr addrspace\(\d+\)`)
	reStore  = regexp.MustCompile(`(?m)^\s*store (?:volatile )?ptr ([^,\n]+),\s*ptr(?: addrspace\(\d+\))? (%[-\w.$]+)`)
	reLoad   = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = load ptr,\s*ptr(?: addrspace\(\d+\))? (%[-\w.$]+)`)
)

// reloads returns the values loaded from a stack slot (an alloca of a
// pointer, or an address-space cast of one) into which fp, and nothing
// else, is stored.
func reloads(body, fp string) []string {
	slot := map[string]string{} // a slot's names -> its alloca
	for _, m := range reAlloca.FindAllStringSubmatch(body, -1) {
		slot[m[1]] = m[1]
	}
	for _, m := range reCast.FindAllStringSubmatch(body, -1) {
		if a, ok := slot[m[2]]; ok {
			slot[m[1]] = a
		}
	}
	stores := map[string]int{} // alloca -> stores into it
	spilled := map[string]bool{}
	for _, m := range reStore.FindAllStringSubmatch(body, -1) {
		if a, ok := slot[m[2]]; ok {
			stores[a]++
			if m[1] == fp {
				spilled[a] = true
			}
		}
	}
	var out []string
	for _, m := range reLoad.FindAllStringSubmatch(body, -1) {
		if a, ok := slot[m[2]]; ok && spilled[a] && stores[a] == 1 {
			out = append(out, m[1])
		}
	}
	return out
}
