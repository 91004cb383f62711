package specconst

import (
	"regexp"
	"slices"
	"strings"
)

// spilledGlobal returns the name of the global whose address function
// text fn loads into local value v from a stack slot, as unoptimised
// (-O0) code passes a spec constant's symbolic ID: "%4 = alloca ptr",
// maybe cast to another address space, one store of a constant naming
// the global into it, "%8 = load ptr, ptr %4" (the reference's
// getStringLiteralArg looks through the same). "" when v is not such a
// load.
func spilledGlobal(fn []byte, v string) string {
	if !strings.HasPrefix(v, "%") {
		return ""
	}
	text := string(fn)
	slot := firstSubmatch(text, `(?m)^\s*`+regexp.QuoteMeta(v)+` = load [^,]+,\s*[^%\n]*(%[-\w.$]+)`)
	if slot == "" {
		return ""
	}
	names := []string{slot}
	if src := firstSubmatch(text, `(?m)^\s*`+regexp.QuoteMeta(slot)+` = addrspacecast [^%\n]*(%[-\w.$]+) to `); src != "" {
		names = append(names, src)
	}
	root := names[len(names)-1]
	if !regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(root) + ` = alloca `).MatchString(text) {
		return ""
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = addrspacecast [^%\n]*`+regexp.QuoteMeta(root)+` to `).FindAllStringSubmatch(text, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	var stored []string
	for _, m := range reStoreInto.FindAllStringSubmatch(text, -1) {
		if slices.Contains(names, m[2]) {
			stored = append(stored, m[1])
		}
	}
	if len(stored) != 1 {
		return ""
	}
	g := reGlobalRef.FindStringSubmatch(stored[0])
	if g == nil {
		return ""
	}
	return strings.Trim(g[1], `"`)
}

var (
	// reStoreInto: "store <type> <value>, <pointer type> %slot".
	reStoreInto = regexp.MustCompile(`(?m)^\s*store (?:volatile )?(.+), [^,%\n]*(%[-\w.$]+)(?:, align \d+)?(?:, !.*)?$`)
	reGlobalRef = regexp.MustCompile(`@([-\w.$]+|"[^"]*")`)
)

func firstSubmatch(text, re string) string {
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return m[1]
}
