package postlink

import (
	"github.com/sycbuild/sycbuild/llvmir"
)

// dummyOf returns the dummy copy of a module of virtual functions, or nil
// when it needs none. A module that defines virtual functions
// ("indirectly-callable") and uses optional kernel features (a function
// with !sycl_used_aspects) gets a copy with every body emptied and the
// definitions' metadata gone: the runtime links that copy instead of the
// real one into a kernel's program on a device that lacks the features, so
// that the kernel's vtables still resolve (the reference's design of
// virtual functions, "dummy virtual functions device image"; its property
// set says dummy-image=1).
func dummyOf(mod *Module) *Module {
	virtual, aspects := false, false
	for _, e := range mod.globals() {
		if e.Func == nil {
			continue
		}
		if mod.Part.Defines(e) && mod.M.Attrs(e).Has("indirectly-callable") {
			virtual = true
		}
		if e.Attachment("sycl_used_aspects") != nil {
			aspects = true
		}
	}
	if !virtual || !aspects {
		return nil
	}
	plan := mod.Part.Plan()
	for _, e := range mod.globals() {
		if e.Func != nil && mod.Part.Defines(e) {
			plan.ReplaceBody(e, emptyBody(e.Func))
		}
	}
	return &Module{Part: mod.Part, Plan: plan, M: mod.M, Cloned: true, Dummy: true}
}

// emptyBody is a body that returns at once: nothing, or undef of the
// function's return type.
func emptyBody(f *llvmir.Function) string {
	ret := "ret void"
	if f.RetType != nil && f.RetType.Kind != llvmir.VoidType {
		ret = "ret " + f.RetType.String() + " undef"
	}
	return "{\nentry:\n  " + ret + "\n}"
}

// hasVirtualFunctions reports whether m defines a virtual function, so
// that a group may have a dummy copy.
func hasVirtualFunctions(m *llvmir.Module) bool {
	for _, e := range m.Entities {
		if e.Func != nil && !e.Func.Declaration && m.Attrs(e).Has("indirectly-callable") {
			return true
		}
	}
	return false
}
