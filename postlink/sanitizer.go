package postlink

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// sanitizerMetadataGlobals are the globals an address, memory or thread
// sanitizer's instrumentation leaves for the runtime, in the order the
// reference looks for them.
var sanitizerMetadataGlobals = [...]string{"__AsanKernelMetadata", "__MsanKernelMetadata", "__TsanKernelMetadata"}

// hostAccessDecoration is SPIR-V's HostAccessINTEL decoration.
const hostAccessDecoration = 6147

// trailingAttrs matches the attributes that end a global variable's line
// (#N groups and inline string attributes).
var trailingAttrs = regexp.MustCompile(`(\s+(#[0-9]+|"[^"]*"(="[^"]*")?))+$`)

// fixSanitizerMetadata is the reference's SanitizerKernelMetadata pass:
// the runtime reads a sanitizer's kernel metadata global as a device
// global, so the global gets its size as "sycl-device-global-size" and the
// !spirv.Decorations that name it for the host (llvm-link drops the one
// the instrumentation wrote). The decoration is written as an inline node,
// which LLVM reads as it reads a numbered one. It reports whether it
// changed anything.
func fixSanitizerMetadata(m *llvmir.Module, cfg *split.Config) (bool, error) {
	var g *llvmir.Entity
	for _, name := range sanitizerMetadataGlobals {
		if e := m.Global(name); e != nil && e.Var != nil && !cfg.Removed[e] {
			g = e
			break
		}
	}
	if g == nil {
		return false, nil
	}
	if _, done := cfg.Rewritten[g]; done {
		return false, nil
	}
	text := string(g.Text)
	for len(text) > 0 && (text[len(text)-1] == '\n' || text[len(text)-1] == '\r') {
		text = text[:len(text)-1]
	}
	attrs := ""
	if len(g.Var.AttrGroups) > 0 || len(g.Var.Attrs) > 0 {
		if loc := trailingAttrs.FindStringIndex(text); loc != nil {
			text, attrs = text[:loc[0]], text[loc[0]:]
		}
	}
	if g.Attachment("spirv.Decorations") == nil {
		text += `, !spirv.Decorations !{!{i32 ` + strconv.Itoa(hostAccessDecoration) + `, i32 0, !"_Z20__SanitizerKernelMetadata"}}`
	}
	if !m.Attrs(g).Has("sycl-device-global-size") {
		size, err := m.DataLayout.AllocSize(g.Var.Type)
		if err != nil {
			line, col := m.Position(g.Off)
			return false, errorf("%s:%d:%d: @%s: %v", m.File, line, col, g.Name, err)
		}
		attrs += ` "sycl-device-global-size"="` + strconv.FormatUint(size, 10) + `"`
	}
	cfg.Rewritten[g] = split.Rewrite{Text: text + attrs + "\n", Globals: g.Globals}
	return true, nil
}

// addSanitizerKernels is the reference's post-split sanitizer step
// (SanitizerPostSplitProcessing): a module holding a sanitizer's kernel
// metadata global, __AsanKernelMetadata<suffix> (or Msan, Tsan), gets an
// empty kernel __sanitizerModule<suffix> for each, by which the
// sanitizer runtime tells the device images apart, images that are linked
// together at run time among them (each carries its own suffix). It
// reports whether it added one.
func addSanitizerKernels(mod *Module) bool {
	group := -1
	for _, e := range mod.globals() {
		if e.Var == nil {
			continue
		}
		for _, prefix := range sanitizerMetadataGlobals {
			suffix, ok := strings.CutPrefix(e.Name, prefix)
			if !ok {
				continue
			}
			if group < 0 {
				group = mod.Plan.NewAttrGroup(llvmir.Attrs{{Key: "sycl-entry-point", String: true}})
			}
			mod.Plan.Add(llvmir.KindFunction, "define weak_odr dso_local spir_kernel void @"+llvmir.QuoteName("__sanitizerModule"+suffix)+
				"() #"+strconv.Itoa(group)+" {\nentry:\n  ret void\n}")
			break
		}
	}
	return group >= 0
}
