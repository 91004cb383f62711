package postlink

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// preSplit is the part of the reference's pre-split pipeline that changes
// what gets split: "llvm.used" goes (after linking it lists kernels, whose
// declarations would otherwise reach llvm-spirv), and for SPIR targets
// device globals leave "llvm.compiler.used" (they were kept there only to
// survive the optimizer) and go entirely when nothing else uses them; a
// sanitizer's kernel metadata global is fixed up (fixSanitizerMetadata).
// It reports whether it changed anything.
func preSplit(m *llvmir.Module, cfg *split.Config) (bool, error) {
	cfg.Removed = map[*llvmir.Entity]bool{}
	cfg.Rewritten = map[*llvmir.Entity]split.Rewrite{}
	modified := false
	if u := m.Global("llvm.used"); u != nil && u.Var != nil {
		cfg.Removed[u] = true
		modified = true
	}
	if strings.Contains(m.Triple, "spir") {
		changed, err := dropDeviceGlobalsFromCompilerUsed(m, cfg)
		if err != nil {
			return false, err
		}
		modified = modified || changed
	}
	changed, err := fixSanitizerMetadata(m, cfg)
	if err != nil {
		return false, err
	}
	return modified || changed, nil
}

// isDeviceGlobal: a global variable with the "sycl-device-global-size"
// attribute.
func isDeviceGlobal(m *llvmir.Module, e *llvmir.Entity) bool {
	return e != nil && e.Var != nil && m.Attrs(e).Has("sycl-device-global-size")
}

func dropDeviceGlobalsFromCompilerUsed(m *llvmir.Module, cfg *split.Config) (bool, error) {
	cu := m.Global("llvm.compiler.used")
	if cu == nil || cu.Var == nil || cu.Var.IsDeclaration() {
		return false, nil
	}
	init, err := m.Initializer(cu)
	if err != nil {
		return false, err
	}
	var keep []*llvmir.Const
	var dropped []*llvmir.Entity
	for _, el := range init.Elems {
		if g := el.PointsTo(); isDeviceGlobal(m, g) {
			dropped = append(dropped, g)
			continue
		}
		keep = append(keep, el)
	}
	if len(dropped) == 0 {
		return false, nil
	}
	// A device global nothing else refers to goes with its entry.
	used := map[*llvmir.Entity]bool{}
	for _, e := range m.Entities {
		if e == cu {
			continue
		}
		for _, g := range e.Globals {
			used[g] = true
		}
	}
	for _, g := range dropped {
		if !used[g] {
			cfg.Removed[g] = true
		}
	}
	if len(keep) == 0 {
		cfg.Removed[cu] = true
		return true, nil
	}
	elem := init.Type.Elem.String()
	var b strings.Builder
	var refs []*llvmir.Entity
	b.WriteString("@llvm.compiler.used = appending global [")
	b.WriteString(itoa(len(keep)) + " x " + elem + "] [")
	for i, el := range keep {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(el.Type.String() + " " + el.Text)
		if g := el.PointsTo(); g != nil {
			refs = append(refs, g)
		}
	}
	b.WriteString("], section \"llvm.metadata\"\n")
	cfg.Rewritten[cu] = split.Rewrite{Text: b.String(), Globals: refs}
	return true, nil
}
