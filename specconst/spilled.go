package specconst

import (
	"regexp"
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
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
	for _, slot := range llvmir.StackSlots(fn) {
		stored, ok := slot.StoredOnce()
		if !ok || !slices.Contains(slot.Loaded, v) {
			continue
		}
		if g := reGlobalRef.FindStringSubmatch(stored); g != nil {
			return strings.Trim(g[1], `"`)
		}
	}
	return ""
}

var reGlobalRef = regexp.MustCompile(`@([-\w.$]+|"[^"]*")`)
