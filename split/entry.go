package split

import (
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// The function attributes and metadata the splitter reads.
const (
	attrModuleID             = "sycl-module-id"
	attrIndirectlyCallable   = "indirectly-callable"
	attrReferencedIndirectly = "referenced-indirectly"
	attrEntryPoint           = "sycl-entry-point"
	mdESIMD                  = "sycl_explicit_simd"
)

// info caches what the splitter asks about a module's functions.
type info struct {
	m *llvmir.Module
	// nvvmKernels are the functions !nvvm.annotations marks as kernels.
	nvvmKernels map[*llvmir.Entity]bool
	// removed and rewritten are the pre-split changes (Config).
	removed   map[*llvmir.Entity]bool
	rewritten map[*llvmir.Entity]Rewrite
	// flags holds, by entity index, facts every part asks about (fl…
	// bits), found once so that the walks of every part ask an array
	// rather than maps or the entity's name.
	flags []uint8
	// attrBits holds, by entity index, which of the attributes every part
	// asks about (attrKeys) each function has: looked up once, not for
	// every part the function is in.
	attrBits []uint8
	// lnk holds, by entity index, the entity's input linkage as an index
	// into linkages (0: not recorded, ask the entity).
	lnk      []uint8
	linkages []llvmir.Linkage
}

// attrKeys are the attributes attrBits holds, one bit each (1<<ak…).
var attrKeys = [...]string{akModuleID: attrModuleID, akIndirectlyCallable: attrIndirectlyCallable,
	akReferencedIndirectly: attrReferencedIndirectly}

// The indices of attrKeys.
const (
	akModuleID = iota
	akIndirectlyCallable
	akReferencedIndirectly
)

// The bits of info.flags.
const (
	flRemoved         uint8 = 1 << iota // in Config.Removed
	flRewritten                         // in Config.Rewritten
	flAlwaysPreserved                   // named as alwaysPreserved lists
	flFunction                          // a function
	flVariable                          // a global variable
	flDecl                              // a function or variable declaration (isDecl)
	flPinned                            // dllexport, or an externally_initialized variable
)

// setChanges records the pre-split changes.
func (in *info) setChanges(removed map[*llvmir.Entity]bool, rewritten map[*llvmir.Entity]Rewrite) {
	in.removed, in.rewritten = removed, rewritten
	for e, ok := range removed {
		if ok && in.own(e) {
			in.flags[e.Index] |= flRemoved
		}
	}
	for e := range rewritten {
		if in.own(e) {
			in.flags[e.Index] |= flRewritten
		}
	}
}

// own reports whether e is an entity of the module (so that it may be
// looked up by index).
func (in *info) own(e *llvmir.Entity) bool {
	return e.Index >= 0 && e.Index < len(in.m.Entities) && in.m.Entities[e.Index] == e
}

// isRemoved reports whether e is treated as absent (Config.Removed).
func (in *info) isRemoved(e *llvmir.Entity) bool {
	if in.own(e) {
		return in.flags[e.Index]&flRemoved != 0
	}
	return in.removed[e]
}

// refs returns the global values an entity references, after the
// pre-split rewrites.
func (in *info) refs(e *llvmir.Entity) []*llvmir.Entity {
	if in.own(e) && in.flags[e.Index]&flRewritten == 0 {
		return e.Globals
	}
	if r, ok := in.rewritten[e]; ok {
		return r.Globals
	}
	return e.Globals
}

// header returns the linkage-carrying header of a global value, or nil.
func header(e *llvmir.Entity) *llvmir.GlobalHeader {
	switch {
	case e.Func != nil:
		return &e.Func.GlobalHeader
	case e.Var != nil:
		return &e.Var.GlobalHeader
	case e.Alias != nil:
		return &e.Alias.GlobalHeader
	}
	return nil
}

// linkage returns a global value's linkage as written in the input.
func (in *info) linkage(e *llvmir.Entity) llvmir.Linkage {
	if h := header(e); h != nil {
		return h.Linkage
	}
	return llvmir.External
}

// linkageAt is linkage by entity index.
func (in *info) linkageAt(i int32) llvmir.Linkage {
	if c := in.lnk[i]; c != 0 {
		return in.linkages[c]
	}
	return in.linkage(in.m.Entities[i])
}

// hasAttrAt reports whether entity i is a function with attribute
// attrKeys[k].
func (in *info) hasAttrAt(i int32, k int) bool { return in.attrBits[i]&(1<<k) != 0 }

func newInfo(m *llvmir.Module) *info {
	n := len(m.Entities)
	in := &info{m: m, nvvmKernels: m.NVVMKernels(), attrBits: make([]uint8, n), flags: make([]uint8, n),
		lnk: make([]uint8, n), linkages: []llvmir.Linkage{""}}
	codes := map[llvmir.Linkage]uint8{}
	for i, e := range m.Entities {
		l := in.linkage(e)
		c, ok := codes[l]
		if !ok && len(in.linkages) <= 255 {
			c = uint8(len(in.linkages))
			codes[l] = c
			in.linkages = append(in.linkages, l)
		}
		in.lnk[i] = c
		if isAlwaysPreserved(e.Name) {
			in.flags[i] |= flAlwaysPreserved
		}
		if e.Func != nil {
			in.flags[i] |= flFunction
		}
		if e.Var != nil {
			in.flags[i] |= flVariable
		}
		if isDecl(e) {
			in.flags[i] |= flDecl
		}
		if h := header(e); h != nil && h.DLLStorage == "dllexport" || e.Var != nil && e.Var.ExternallyInitialized {
			in.flags[i] |= flPinned
		}
		if e.Func == nil {
			continue
		}
		for k, key := range attrKeys {
			if _, ok := m.Attr(e, key); ok {
				in.attrBits[i] |= 1 << k
			}
		}
	}
	return in
}

// annotatedFunc returns the function an !nvvm.annotations operand node
// refers to (whatever the annotation), or nil.
func annotatedFunc(n *llvmir.MDNode) *llvmir.Entity {
	if n == nil || len(n.Ops) == 0 || n.Ops[0].Kind != llvmir.MDValue {
		return nil
	}
	return n.Ops[0].Global
}

// isKernel reports whether e is a kernel (llvmir's definition: a kernel
// calling convention or an !nvvm.annotations kernel entry).
func (in *info) isKernel(e *llvmir.Entity) bool {
	return e.Func != nil && (llvmir.IsKernelCallingConv(e.Func.CallingConv) || in.nvvmKernels[e])
}

func (in *info) attr(e *llvmir.Entity, key string) (string, bool) {
	if e.Func == nil {
		return "", false
	}
	return in.m.Attr(e, key)
}

func (in *info) hasAttr(e *llvmir.Entity, key string) bool {
	if in.own(e) {
		for k, ak := range attrKeys {
			if key == ak {
				return in.attrBits[e.Index]&(1<<k) != 0
			}
		}
	}
	_, ok := in.attr(e, key)
	return ok
}

// IsESIMD reports whether a function is ESIMD code (!sycl_explicit_simd).
func IsESIMD(e *llvmir.Entity) bool {
	if e.Func == nil {
		return false
	}
	for i := range e.Func.Attachments {
		if e.Func.Attachments[i].Kind == mdESIMD {
			return true
		}
	}
	return false
}

// isDecl reports whether a function or variable has no body/initializer.
func isDecl(e *llvmir.Entity) bool {
	switch {
	case e.Func != nil:
		return e.Func.Declaration
	case e.Var != nil:
		return e.Var.IsDeclaration()
	}
	return false
}

// afterItaniumLength returns what follows "_Z<digits>" in a mangled name,
// or false when the name does not start that way.
func afterItaniumLength(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "_Z")
	if !ok {
		return "", false
	}
	return strings.TrimLeft(rest, "0123456789"), true
}

// isSpirvSyclBuiltin: _Z<digits>__spirv_… or _Z<digits>__sycl_….
func isSpirvSyclBuiltin(name string) bool {
	rest, ok := afterItaniumLength(name)
	return ok && (strings.HasPrefix(rest, "__spirv_") || strings.HasPrefix(rest, "__sycl_"))
}

// isESIMDBuiltin: _Z<digits>__esimd_….
func isESIMDBuiltin(name string) bool {
	rest, ok := afterItaniumLength(name)
	return ok && strings.HasPrefix(rest, "__esimd_")
}

// isIntrinsicOrBuiltin is what the undefined-function warning and the
// import rules skip: LLVM intrinsics, names starting "__", and the SPIR-V,
// SYCL and ESIMD builtins.
func isIntrinsicOrBuiltin(name string) bool {
	return strings.HasPrefix(name, "llvm.") || strings.HasPrefix(name, "__") ||
		isSpirvSyclBuiltin(name) || isESIMDBuiltin(name)
}

// isEntryPoint decides whether a function starts a group.
func (in *info) isEntryPoint(e *llvmir.Entity, onlyKernels bool) bool {
	if e.Func == nil || e.Func.Declaration {
		return false
	}
	if in.isKernel(e) {
		return true
	}
	if !onlyKernels {
		return in.hasAttr(e, attrModuleID) && !isSpirvSyclBuiltin(e.Name) &&
			!isESIMDBuiltin(e.Name) && !strings.HasPrefix(e.Name, "__builtin_")
	}
	// Virtual functions are outlined into images of their own and linked
	// in later, so they stay entry points.
	return in.hasAttr(e, attrIndirectlyCallable)
}

// bf16DeviceLibFuncs are the functions of the bfloat16 device libraries;
// declarations of them are always imported (from those libraries).
var bf16DeviceLibFuncs = map[string]bool{
	"__devicelib_ConvertFToBF16INTEL":      true,
	"__devicelib_ConvertBF16ToFINTEL":      true,
	"__devicelib_ConvertFToBF16INTELVec1":  true,
	"__devicelib_ConvertBF16ToFINTELVec1":  true,
	"__devicelib_ConvertFToBF16INTELVec2":  true,
	"__devicelib_ConvertBF16ToFINTELVec2":  true,
	"__devicelib_ConvertFToBF16INTELVec3":  true,
	"__devicelib_ConvertBF16ToFINTELVec3":  true,
	"__devicelib_ConvertFToBF16INTELVec4":  true,
	"__devicelib_ConvertBF16ToFINTELVec4":  true,
	"__devicelib_ConvertFToBF16INTELVec8":  true,
	"__devicelib_ConvertBF16ToFINTELVec8":  true,
	"__devicelib_ConvertFToBF16INTELVec16": true,
	"__devicelib_ConvertBF16ToFINTELVec16": true,
}

// IsBF16DeviceLibDecl reports whether e declares a bfloat16 device-library
// function.
func IsBF16DeviceLibDecl(e *llvmir.Entity) bool {
	return e.Func != nil && e.Func.Declaration && bf16DeviceLibFuncs[e.Name]
}

// canBeImported is canBeImportedFunction: whether a function may be left
// to another device image (and so is never pulled into a module as a
// dependency).
func (in *info) canBeImported(e *llvmir.Entity, allowDeps bool) bool {
	if e.Func == nil {
		return false
	}
	if IsBF16DeviceLibDecl(e) {
		return true
	}
	if !allowDeps {
		return false
	}
	if isIntrinsicOrBuiltin(e.Name) || (!e.Func.Declaration && !in.hasAttr(e, attrModuleID)) {
		return false
	}
	return !demangledStartsWithUnderscores(e.Name)
}

// demangledStartsWithUnderscores reports whether the demangled form of an
// Itanium name begins with "__": the first source name of "_Z<len><name>"
// or of a nested "_ZN[qualifiers]<len><name>…". Names that are not mangled
// (which LLVM's demangler rejects) report false.
func demangledStartsWithUnderscores(name string) bool {
	rest, ok := strings.CutPrefix(name, "_Z")
	if !ok {
		return false
	}
	if r, nested := strings.CutPrefix(rest, "N"); nested {
		rest = strings.TrimLeft(r, "rVKRO") // cv- and ref-qualifiers of a nested name
	}
	rest, ok = strings.CutPrefix(rest, "L") // internal-linkage marker
	_ = ok
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 {
		return false
	}
	return strings.HasPrefix(rest[digits:], "__")
}
