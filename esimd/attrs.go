package esimd

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// delta is how the lowering changes one function's attributes.
type delta struct {
	add    llvmir.Attrs
	remove []string
}

func (d delta) key() string {
	var b strings.Builder
	for _, a := range d.add {
		b.WriteString(a.Text())
		b.WriteByte(' ')
	}
	b.WriteByte('|')
	b.WriteString(strings.Join(d.remove, " "))
	return b.String()
}

func str(k, v string) llvmir.Attr {
	return llvmir.Attr{Key: k, Value: v, HasValue: true, String: true}
}

// deltaOf is what the reference's pipeline does to ESIMD function f's
// attributes: optnone and noinline go from a module of ESIMD code only
// (unless the function is SIMT code, "CMGenxSIMT"); a function that is
// not a kernel and not noinline becomes alwaysinline (the vector backend
// needs callees inlined); GenXSPIRVWriterAdaptor marks every function
// "VCFunction", and gives a kernel ("CMGenxMain") its SLM size and
// named-barrier count from its genx.kernels entry.
func (l *lowering) deltaOf(f *llvmir.Entity) delta {
	m := l.mod.M
	var d delta
	has := func(k string) bool { _, ok := m.Attr(f, k); return ok }
	noinline := has("noinline")
	if l.mod.WholeESIMD && !has("CMGenxSIMT") {
		for _, k := range []string{"optnone", "noinline"} {
			if has(k) {
				d.remove = append(d.remove, k)
			}
		}
		noinline = false
	}
	kernel := f.Func.CallingConv == "spir_kernel"
	// A stack call (an invoke_simd helper) is called, not inlined.
	if !kernel && !noinline && !has("alwaysinline") && !has("VCStackCall") {
		d.add = append(d.add, llvmir.Attr{Key: "alwaysinline"})
	}
	if kernel {
		d.add = append(d.add, llvmir.Attr{Key: "CMGenxMain", String: true})
	}
	d.add = append(d.add, llvmir.Attr{Key: "VCFunction", String: true})
	if kernel {
		d.add = append(d.add,
			str("VCNamedBarrierCount", strconv.FormatUint(l.kernelNBar[f], 10)),
			str("VCSLMSize", strconv.FormatUint(l.kernelSLM[f], 10)))
	}
	return d
}

// attributes applies each ESIMD function's delta. A function's attribute
// group is rewritten in place when every user of the group gets the same
// delta (group numbers stay as they are); otherwise the additions are
// written inline in the function's header.
func (l *lowering) attributes() error {
	deltas := map[*llvmir.Entity]delta{}
	for _, f := range l.esimd {
		deltas[f] = l.deltaOf(f)
	}
	// users[g] is the delta key of each user of group #g; "" for a user the
	// lowering does not change (a call site, a variable, other code).
	users := map[int][]string{}
	for _, f := range l.mod.Funcs {
		k := ""
		if d, ok := deltas[f]; ok {
			k = d.key()
		}
		for _, g := range f.Func.AttrGroups {
			users[g] = append(users[g], k)
		}
		if !l.mod.Defines(f) {
			continue
		}
		for i := range f.Func.Calls {
			for _, g := range f.Func.Calls[i].AttrGroups {
				users[g] = append(users[g], "")
			}
		}
	}
	for _, f := range l.mod.M.GlobalVars() {
		for _, g := range f.Var.AttrGroups {
			users[g] = append(users[g], "")
		}
	}
	rewritten := map[int]bool{}
	for _, f := range l.esimd {
		if f.Func.CallingConv == "spir_kernel" {
			l.kernelArgs(f)
		}
		d := deltas[f]
		if gs := f.Func.AttrGroups; len(gs) == 1 && sameKeys(users[gs[0]], d.key()) {
			if !rewritten[gs[0]] {
				rewritten[gs[0]] = true
				l.rewriteGroup(gs[0], d)
			}
			continue
		}
		if len(d.remove) > 0 {
			// The header's groups cannot be swapped for another: the
			// function keeps what it has, which the backend then honours.
			l.mod.Warnings = append(l.mod.Warnings, fmt.Sprintf("%s: ESIMD function @%s keeps %s: its attribute group is shared with code that keeps them", l.mod.M.File, f.Name, strings.Join(d.remove, " and ")))
		}
		for _, a := range d.add {
			if _, ok := l.mod.M.Attr(f, a.Key); !ok {
				l.mod.Plan.AddFnAttr(f, a)
			}
		}
	}
	return nil
}

func sameKeys(keys []string, k string) bool {
	for _, u := range keys {
		if u != k {
			return false
		}
	}
	return len(keys) > 0
}

// rewriteGroup writes group #g with d applied, attributes in the order
// LLVM prints them: the built-in ones, then the string ones by key.
func (l *lowering) rewriteGroup(g int, d delta) {
	e := l.mod.M.AttrGroup(g)
	var attrs llvmir.Attrs
	for _, a := range e.Group.Attrs {
		if !slices.Contains(d.remove, a.Key) {
			attrs = append(attrs, a)
		}
	}
	for _, a := range d.add {
		if !e.Group.Attrs.Has(a.Key) {
			attrs = append(attrs, a)
		}
	}
	l.mod.Plan.SetGroupAttrs(e, attrs)
}
