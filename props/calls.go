package props

import "github.com/sycbuild/sycbuild/llvmir"

// CallSite is one direct call of a function: the calling function and the
// index of the call in its Func.Calls.
type CallSite struct {
	Caller *llvmir.Entity
	Index  int
}

// Call returns the call instruction.
func (c CallSite) Call() *llvmir.Call { return &c.Caller.Func.Calls[c.Index] }

// CallSites returns the direct calls of callee from the functions among
// callers (entities of one module, in module order: the module's
// Entities, or the global values an output module holds) that keep
// accepts (nil: all), in the order LLVM's use list of callee yields them,
// which is what the reference's passes iterate (F->users()). LLVM adds a
// use at the head of the list, so:
//   - in a module read from text (cloned false), the calls that follow the
//     callee's declaration come last-first, then the calls that precede it
//     first-first (they were made on a forward reference and moved over
//     when the declaration was read);
//   - in a module made by cloning (cloned true: every split module), all
//     calls come last-first in module order.
func CallSites(callers []*llvmir.Entity, callee *llvmir.Entity, keep func(*llvmir.Entity) bool, cloned bool) []CallSite {
	var before, after []CallSite
	for _, e := range callers {
		if e.Func == nil || (keep != nil && !keep(e)) {
			continue
		}
		for i := range e.Func.Calls {
			c := &e.Func.Calls[i]
			if c.Callee != callee {
				continue
			}
			site := CallSite{Caller: e, Index: i}
			if !cloned && c.Start < callee.Off {
				before = append(before, site)
			} else {
				after = append(after, site)
			}
		}
	}
	out := make([]CallSite, 0, len(before)+len(after))
	for i := len(after) - 1; i >= 0; i-- {
		out = append(out, after[i])
	}
	return append(out, before...)
}
