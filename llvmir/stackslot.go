package llvmir

import (
	"regexp"
	"strings"
)

// StackSlot is a stack slot of a function body as unoptimised (-O0) code
// uses one to hold a value: an alloca, the address-space casts of it, what
// is stored into it and what is loaded from it.
type StackSlot struct {
	Names  []string // the alloca ("%x") and its address-space casts
	Stored []string // the stored operands, with their types ("ptr %f")
	Loaded []string // the values loaded from it ("%1")
}

// StoredOnce returns the one operand stored into the slot (with its
// type), or false when the slot is stored into more than once or never.
func (s *StackSlot) StoredOnce() (string, bool) {
	if len(s.Stored) != 1 {
		return "", false
	}
	return s.Stored[0], true
}

var (
	reSlotAlloca = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = alloca `)
	reSlotCast   = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = addrspacecast [^%\n]*(%[-\w.$]+) to `)
	// A store's value may be a constant expression with commas: the
	// pointer operand is the last "%name" before the alignment and the
	// metadata attachments.
	reSlotStore = regexp.MustCompile(`(?m)^\s*store (?:volatile )?(.+),\s*[^,%\n]*(%[-\w.$]+)(?:, align \d+)?(?:, !.*)?$`)
	reSlotLoad  = regexp.MustCompile(`(?m)^\s*(%[-\w.$]+) = load (?:volatile )?[^,]+,\s*[^%\n]*(%[-\w.$]+)`)
)

// StackSlots returns the stack slots of function text fn (a body, or a
// whole definition), in the order of their allocas. It reads the text
// line by line, as LLVM writes instructions: one per line.
func StackSlots(fn []byte) []StackSlot {
	text := string(fn)
	var slots []StackSlot
	of := map[string]int{} // a slot's names -> its index
	for _, m := range reSlotAlloca.FindAllStringSubmatch(text, -1) {
		of[m[1]] = len(slots)
		slots = append(slots, StackSlot{Names: []string{m[1]}})
	}
	if len(slots) == 0 {
		return nil
	}
	for _, m := range reSlotCast.FindAllStringSubmatch(text, -1) {
		if i, ok := of[m[2]]; ok {
			if _, dup := of[m[1]]; !dup {
				of[m[1]] = i
				slots[i].Names = append(slots[i].Names, m[1])
			}
		}
	}
	for _, m := range reSlotStore.FindAllStringSubmatch(text, -1) {
		if i, ok := of[m[2]]; ok {
			slots[i].Stored = append(slots[i].Stored, strings.TrimSpace(m[1]))
		}
	}
	for _, m := range reSlotLoad.FindAllStringSubmatch(text, -1) {
		if i, ok := of[m[2]]; ok {
			slots[i].Loaded = append(slots[i].Loaded, m[1])
		}
	}
	return slots
}
