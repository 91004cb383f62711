package props

import (
	"sort"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/llvmir"
)

// addKernelParamOpt adds [SYCL/kernel param opt]: per function with
// !sycl_kernel_omit_args (or the 2020-era name !spir_kernel_omit_args), a
// bit array whose bit i is set when argument i was removed by dead argument
// elimination. The reference iterates a hash map; sycbuild uses module
// order, which is deterministic.
func addKernelParamOpt(r *Registry, img *Image) error {
	s := r.Set(SetKernelParamOpt)
	for _, f := range img.functions() {
		n := f.Attachment("sycl_kernel_omit_args")
		if n == nil {
			n = f.Attachment("spir_kernel_omit_args")
		}
		if n == nil || len(n.Ops) == 0 {
			continue
		}
		packed := make([]byte, (len(n.Ops)+7)/8)
		for i := range n.Ops {
			v, ok := mdUint(n, i)
			if !ok {
				return img.malformed(f, "!sycl_kernel_omit_args")
			}
			if v != 0 {
				packed[i/8] |= 1 << (i % 8)
			}
		}
		s.Add(NewBitArray(f.Name, uint64(len(n.Ops)), packed))
	}
	return nil
}

// addExportedSymbols adds [SYCL/exported symbols]: the entry points with the
// spir_func calling convention that are not virtual functions.
func addExportedSymbols(r *Registry, img *Image) {
	for _, f := range img.EntryPoints {
		if img.hasAttr(f, "indirectly-callable") {
			continue
		}
		if f.Func.CallingConv == "spir_func" {
			r.Add(SetExportedSymbols, NewUint32(f.Name, 1))
		}
	}
}

// addImportedSymbols adds [SYCL/imported symbols]: the declarations another
// image may define.
func addImportedSymbols(r *Registry, img *Image, allowDeps bool) {
	for _, f := range img.functions() {
		if !img.isDecl(f) || img.hasAttr(f, "indirectly-callable") {
			continue
		}
		if CanBeImported(img.M, f, true, allowDeps) {
			r.Add(SetImportedSymbols, NewUint32(f.Name, 1))
		}
	}
}

// CanBeImported reports whether function f (a declaration when decl is
// true) may be supplied by another device image (canBeImportedFunction):
// always for the bfloat16 device-library functions; otherwise only with
// -allow-device-image-dependencies, and never for intrinsics, builtins
// (names starting "__", SPIR-V, SYCL and ESIMD builtins), definitions that
// are not SYCL_EXTERNAL, or functions whose demangled name starts "__".
func CanBeImported(m *llvmir.Module, f *llvmir.Entity, decl, allowDeps bool) bool {
	if decl && deviceLibBit[f.Name] == libBFloat16 && strings.HasPrefix(f.Name, "__devicelib_") {
		return true
	}
	if !allowDeps {
		return false
	}
	name := f.Name
	if strings.HasPrefix(name, "llvm.") || strings.HasPrefix(name, "__") || IsBuiltinName(name) {
		return false
	}
	if !decl && !m.Attrs(f).Has("sycl-module-id") {
		return false
	}
	if base, ok := demangledPrefix(name); ok && strings.HasPrefix(base, "__") {
		return false
	}
	return true
}

// IsBuiltinName reports whether a mangled name is a SPIR-V, SYCL or ESIMD
// builtin: "_Z<digits>" followed by "__spirv_", "__sycl_" or "__esimd_".
func IsBuiltinName(name string) bool {
	if !strings.HasPrefix(name, "_Z") {
		return false
	}
	i := 2
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i == 2 {
		return false
	}
	rest := name[i:]
	return strings.HasPrefix(rest, "__spirv_") || strings.HasPrefix(rest, "__sycl_") || strings.HasPrefix(rest, "__esimd_")
}

// demangledPrefix returns the start of the Itanium-demangled form of name:
// its first name component, enough to tell whether the demangled name
// starts with "__". ok is false when name is not a mangled name this reads
// (the reference then keeps the function).
func demangledPrefix(name string) (string, bool) {
	if !strings.HasPrefix(name, "_Z") {
		return "", false
	}
	s := name[2:]
	s = strings.TrimPrefix(s, "L")
	if strings.HasPrefix(s, "N") {
		s = strings.TrimLeft(s[1:], "rVKRO")
	}
	if strings.HasPrefix(s, "St") {
		return "std::", true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return "", false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || i+n > len(s) {
		return "", false
	}
	return s[i : i+n], true
}

// addProgramMetadata adds [SYCL/program metadata]: per function (module
// order) its work-group and sub-group metadata, then per device global the
// mapping from its unique ID to its IR name. Work-group values are
// truncated to 32 bits as the reference does.
func addProgramMetadata(r *Registry, img *Image) error {
	s := r.Set(SetProgramMetadata)
	for _, f := range img.functions() {
		if n := f.Attachment("reqd_work_group_size"); n != nil && len(n.Ops) > 0 {
			vs, err := mdUint32s(img, f, n, "!reqd_work_group_size")
			if err != nil {
				return err
			}
			s.Add(NewUint32Array(f.Name+"@reqd_work_group_size", vs))
		}
		for _, one := range []struct{ md, prop string }{
			{"intel_reqd_sub_group_size", "@reqd_sub_group_size"},
			{"work_group_num_dim", "@work_group_num_dim"},
		} {
			if n := f.Attachment(one.md); n != nil {
				v, ok := mdUint(n, 0)
				if !ok || len(n.Ops) != 1 {
					return img.malformed(f, "!"+one.md)
				}
				s.Add(NewUint32(f.Name+one.prop, uint32(v)))
			}
		}
		if n := f.Attachment("max_work_group_size"); n != nil && len(n.Ops) > 0 {
			vs, err := mdUint32s(img, f, n, "!max_work_group_size")
			if err != nil {
				return err
			}
			s.Add(NewUint32Array(f.Name+"@max_work_group_size", vs))
		}
		if n := f.Attachment("max_linear_work_group_size"); n != nil {
			v, ok := mdUint(n, 0)
			if !ok || len(n.Ops) != 1 {
				return img.malformed(f, "!max_linear_work_group_size")
			}
			// A uint64 handed to the uint32 property constructor.
			s.Add(NewUint32(f.Name+"@max_linear_work_group_size", uint32(v)))
		}
	}
	for _, g := range img.globalVars() {
		if !isDeviceGlobal(img, g) {
			continue
		}
		id, err := uniqueID(img, g)
		if err != nil {
			return err
		}
		s.Add(NewString(id+"@global_id_mapping", g.Name))
	}
	return nil
}

func mdUint32s(img *Image, f *llvmir.Entity, n *llvmir.MDNode, what string) ([]uint32, error) {
	vs := make([]uint32, len(n.Ops))
	for i := range n.Ops {
		v, ok := mdUint(n, i)
		if !ok {
			return nil, img.malformed(f, what)
		}
		vs[i] = uint32(v)
	}
	return vs, nil
}

// addMiscEntryPointProps adds the [SYCL/misc properties] that come from the
// image kind and its entry points: isEsimdImage, the register allocation
// mode and GRF size of the first entry point that sets one, and the
// optimization level of the first entry point with a readable
// sycl-optlevel (not for images that merge SYCL and ESIMD code). An image
// whose entry points set both a register allocation mode and a GRF size is
// an error: the two properties ask the device compiler for the same thing
// (grf-size-conflict.ll).
func addMiscEntryPointProps(r *Registry, img *Image) error {
	if img.Esimd == ESIMDOnly {
		r.Add(SetMisc, NewUint32("isEsimdImage", 1))
	}
	var setters [2]*llvmir.Entity
	for i, key := range [...]string{"sycl-register-alloc-mode", "sycl-grf-size"} {
		for _, f := range img.EntryPoints {
			if v, ok := img.attr(f, key); ok {
				n, _ := attrUint(v)
				r.Add(SetMisc, NewUint32(key, uint32(n)))
				setters[i] = f
				break
			}
		}
	}
	if mode, size := setters[0], setters[1]; mode != nil && size != nil {
		line, col := img.M.Position(size.Off)
		return &Error{File: img.M.File, Line: line, Col: col, Msg: "Unsupported use of both register_alloc_mode and grf_size in one device image (@" +
			mode.Name + " has \"sycl-register-alloc-mode\", @" + size.Name + " \"sycl-grf-size\")"}
	}
	if img.Esimd != SYCLAndESIMD {
		for _, f := range img.EntryPoints {
			v, ok := img.attr(f, "sycl-optlevel")
			if !ok {
				continue
			}
			if n, err := strconv.ParseInt(v, 10, 32); err == nil {
				r.Add(SetMisc, NewUint32("optLevel", uint32(n)))
				break
			}
		}
	}
	return nil
}

// addAssertUsed adds [SYCL/assert used]: the spir kernels that reach
// __devicelib_assert_fail through direct calls, found by a breadth-first
// walk up the call graph in use-list order; when the walk meets a function
// marked "referenced-indirectly", every spir kernel of the image.
func addAssertUsed(r *Registry, img *Image) {
	start := img.global("__devicelib_assert_fail")
	if start == nil || start.Func == nil {
		return
	}
	var names []string
	visited := map[*llvmir.Entity]bool{}
	queue := []*llvmir.Entity{start}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if visited[f] {
			continue
		}
		visited[f] = true
		for _, site := range CallSites(img.functions(), f, nil, img.Cloned) {
			caller := site.Caller
			if visited[caller] {
				continue
			}
			if img.hasAttr(caller, "referenced-indirectly") {
				for _, k := range img.spirKernels() {
					r.Add(SetAssertUsed, NewUint32(k.Name, 1))
				}
				return
			}
			if caller.Func.CallingConv == "spir_kernel" {
				names = append(names, caller.Name)
			}
			queue = append(queue, caller)
		}
	}
	for _, n := range names {
		r.Add(SetAssertUsed, NewUint32(n, 1))
	}
}

// addImplicitLocalArg adds [SYCL/implicit local arg] (SPIR and SPIR-V
// images only): per spir kernel with "sycl-work-group-static", the index of
// its parameter marked "sycl-implicit-local-arg" (-1, written as
// 4294967295, when none).
func addImplicitLocalArg(r *Registry, img *Image) {
	if !isSPIROrSPIRV(img.M.Triple) {
		return
	}
	for _, k := range img.spirKernels() {
		if !img.hasAttr(k, "sycl-work-group-static") {
			continue
		}
		arg := int32(-1)
		for i := range k.Func.Params {
			if k.Func.Params[i].Attrs.Has("sycl-implicit-local-arg") {
				arg = int32(i)
				break
			}
		}
		r.Add(SetImplicitLocalArg, NewUint32(k.Name, uint32(arg)))
	}
}

// addSanitizer adds misc sanUsed when the image carries a sanitizer's
// kernel metadata global.
func addSanitizer(r *Registry, img *Image) {
	for _, s := range []struct{ global, name string }{
		{"__AsanKernelMetadata", "asan"}, {"__MsanKernelMetadata", "msan"}, {"__TsanKernelMetadata", "tsan"},
	} {
		if g := img.global(s.global); g != nil && g.Var != nil {
			r.Add(SetMisc, NewString("sanUsed", s.name))
			return
		}
	}
}

// addVirtualFunctions adds [SYCL/virtual functions]: the set of the first
// defined virtual function when the image defines one (and dummy-image=1
// for a dummy copy), else the sets named
// by every "calls-indirectly" attribute, sorted and comma-joined.
func addVirtualFunctions(r *Registry, img *Image) {
	used := map[string]bool{}
	for _, f := range img.functions() {
		if img.isDecl(f) {
			continue
		}
		if v, ok := img.attr(f, "indirectly-callable"); ok {
			r.Add(SetVirtualFunctions, NewString("virtual-functions-set", v))
			if img.Dummy {
				r.Add(SetVirtualFunctions, NewUint32("dummy-image", 1))
			}
			return
		}
		if v, ok := img.attr(f, "calls-indirectly"); ok {
			for _, set := range strings.Split(v, ",") {
				if set != "" {
					used[set] = true
				}
			}
		}
	}
	if len(used) == 0 {
		return
	}
	sets := make([]string, 0, len(used))
	for s := range used {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	r.Add(SetVirtualFunctions, NewString("uses-virtual-functions-set", strings.Join(sets, ",")))
}

// addRegisteredKernels adds [SYCL/registered kernels] from
// !sycl_registered_kernels = !{!{!{!"name", !"mangled"}, …}}.
func addRegisteredKernels(r *Registry, img *Image) {
	nm := img.M.NamedMD("sycl_registered_kernels")
	if nm == nil || nm.Named == nil || !img.kept(nm) || len(nm.Named.Ops) != 1 {
		return
	}
	list := nm.Named.Ops[0].Target()
	if list == nil {
		return
	}
	for i := range list.Ops {
		pair := list.Ops[i].Target()
		if pair == nil || len(pair.Ops) != 2 {
			continue
		}
		name, ok1 := mdString(pair, 0)
		mangled, ok2 := mdString(pair, 1)
		// The image keeps only the pairs whose kernel it holds (cleanup
		// prunes the others).
		if ok1 && ok2 && img.global(mangled) != nil {
			r.Add(SetRegisteredKernels, NewString(name, mangled))
		}
	}
}

// addKernelNames adds [SYCL/kernel names]: every kernel of the image
// (spir_kernel, amdgpu_kernel or ptx_kernel), in module order.
func addKernelNames(r *Registry, img *Image) {
	for _, f := range img.functions() {
		switch f.Func.CallingConv {
		case "spir_kernel", "amdgpu_kernel", "ptx_kernel":
			if !img.isDecl(f) {
				r.Add(SetKernelNames, NewUint32(f.Name, 1))
			}
		}
	}
}
