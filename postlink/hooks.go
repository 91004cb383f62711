package postlink

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// Module is one output module on its way out: the split part, the plan
// that writes it (further edits may be added) and what the steps after
// splitting need to know. It is what the hooks below receive.
type Module struct {
	Part *split.Part
	Plan *llvmir.Plan
	// M is the input module the part and the plan are made of; Cloned says
	// the part was extracted from it (a split happened), as opposed to
	// being the input module itself: LLVM's use lists, and so the order in
	// which spec-constant calls are visited, differ between the two.
	M      *llvmir.Module
	Cloned bool
	// DefaultValues marks a copy whose specialization constants are
	// replaced by their default values
	// (-generate-device-image-default-spec-consts); it gets the next ID.
	DefaultValues bool
	// Dummy marks the dummy copy of a module of virtual functions (see
	// dummyOf); it gets an ID of its own after the module's group.
	Dummy bool

	globalList []*llvmir.Entity // Part.Globals, found on first use
}

// globals returns the global values the module writes, in module order
// (Part.Globals, once): what per-module work walks, so that it costs what
// the module holds.
func (mod *Module) globals() []*llvmir.Entity {
	if mod.globalList == nil {
		mod.globalList = mod.Part.Globals()
	}
	return mod.globalList
}

// Hooks are the per-module steps that follow splitting in the reference's
// order (processInputModule step 4): specialization constants on each
// extracted module, then, per written module and output table, property
// sets. A nil hook is a step this build does not implement: Run then
// refuses the options that need it instead of writing something
// incomplete.
type Hooks struct {
	// SpecConstants lowers the specialization-constant intrinsics of mod
	// in mode by adding edits to mod.Plan, and reports whether it changed
	// anything. With defaults it also returns a copy that uses the
	// default values (nil when the module has no spec constants).
	SpecConstants func(o *Options, mod *Module, mode SpecConstMode, defaults bool) (modified bool, defaultCopy *Module, err error)
	// Properties renders the .prop file of mod for the table of target
	// ("" for a table without target).
	Properties func(o *Options, mod *Module, target string) ([]byte, error)
}

// DefaultHooks returns the hooks of this build: package specconst lowers
// the spec-constant intrinsics, package props computes the property sets.
func DefaultHooks() Hooks {
	return Hooks{SpecConstants: lowerSpecConstants, Properties: moduleProperties}
}

// specConstCallees are the names (inside the mangling) of the SYCL
// specialization-constant intrinsics, 2020 API and the older one.
var specConstCallees = []string{
	"__sycl_getScalar2020SpecConstantValue",
	"__sycl_getComposite2020SpecConstantValue",
	"__sycl_getSpecConstantValue",
	"__sycl_getCompositeSpecConstantValue",
}

// usesSpecConstants reports whether any function the part defines calls a
// specialization-constant intrinsic.
func usesSpecConstants(mod *Module) bool {
	p := mod.Part
	for _, e := range mod.globals() {
		if e.Func == nil || e.Func.Declaration || !p.Defines(e) {
			continue
		}
		for _, c := range e.Func.Callees {
			for _, pre := range specConstCallees {
				if strings.Contains(c.Name, pre) {
					return true
				}
			}
		}
	}
	return false
}
