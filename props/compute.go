package props

import "github.com/sycbuild/sycbuild/llvmir"

// The property set names the SYCL runtime knows (PropertySetRegistry's
// SYCL_* constants).
const (
	SetDeviceLibReqMask      = "SYCL/devicelib req mask"
	SetDeviceRequirements    = "SYCL/device requirements"
	SetSpecConstants         = "SYCL/specialization constants"
	SetSpecConstantsDefaults = "SYCL/specialization constants default values"
	SetKernelParamOpt        = "SYCL/kernel param opt"
	SetProgramMetadata       = "SYCL/program metadata"
	SetMisc                  = "SYCL/misc properties"
	SetAssertUsed            = "SYCL/assert used"
	SetExportedSymbols       = "SYCL/exported symbols"
	SetImportedSymbols       = "SYCL/imported symbols"
	SetDeviceGlobals         = "SYCL/device globals"
	SetDeviceLibMetadata     = "SYCL/devicelib metadata"
	SetHostPipes             = "SYCL/host pipes"
	SetVirtualFunctions      = "SYCL/virtual functions"
	SetImplicitLocalArg      = "SYCL/implicit local arg"
	SetRegisteredKernels     = "SYCL/registered kernels"
	SetKernelNames           = "SYCL/kernel names"
)

// Options are the sycl-post-link switches that decide which property sets
// an image gets.
type Options struct {
	EmitParamInfo       bool // -emit-param-info
	EmitProgramMetadata bool // -emit-program-metadata
	EmitExportedSymbols bool // -emit-exported-symbols
	EmitImportedSymbols bool // -emit-imported-symbols
	EmitKernelNames     bool // -emit-kernel-names
	DeviceGlobals       bool // -device-globals
	// AllowDeps is -allow-device-image-dependencies: it widens which
	// declarations count as imported.
	AllowDeps bool
	// DropReqdWorkGroupSize leaves reqd_work_group_size_uint64_t out of the
	// device requirements (no split mode was given).
	DropReqdWorkGroupSize bool
	// CompileTarget is the target of an "-o target,file" table: it adds
	// compile_target to the device requirements ("" for none).
	CompileTarget string
}

// Compute returns the property sets of img in the reference's order
// (dpcpp-tools.md §3.10). Errors name the file, line and column of the
// metadata or attribute that cannot be read.
func Compute(img *Image, o Options) (*Registry, error) {
	r := &Registry{}

	r.Add(SetDeviceLibReqMask, NewUint32("DeviceLibReqMask", DeviceLibReqMask(img)))

	reqs, err := DeviceRequirements(img)
	if err != nil {
		return nil, err
	}
	if o.DropReqdWorkGroupSize {
		reqs.ReqdWorkGroupSize = nil
	}
	reqs.addTo(r.Set(SetDeviceRequirements))
	if o.CompileTarget != "" {
		r.Add(SetDeviceRequirements, NewString("compile_target", o.CompileTarget))
	}

	if len(img.SpecConsts) > 0 {
		addSpecConsts(r, img.SpecConsts, img.SpecConstDefaults)
	}
	if o.EmitParamInfo {
		if err := addKernelParamOpt(r, img); err != nil {
			return nil, err
		}
	}
	if o.EmitExportedSymbols {
		addExportedSymbols(r, img)
	}
	if o.EmitImportedSymbols {
		addImportedSymbols(r, img, o.AllowDeps)
	}
	if o.EmitProgramMetadata {
		if err := addProgramMetadata(r, img); err != nil {
			return nil, err
		}
	}
	if err := addMiscEntryPointProps(r, img); err != nil {
		return nil, err
	}
	addAssertUsed(r, img)
	addImplicitLocalArg(r, img)
	addSanitizer(r, img)
	if o.DeviceGlobals {
		if err := addDeviceGlobals(r, img); err != nil {
			return nil, err
		}
	}
	if err := addHostPipes(r, img); err != nil {
		return nil, err
	}
	if img.DefaultValueImage {
		r.Add(SetMisc, NewUint32("specConstsReplacedWithDefault", 1))
	}
	addVirtualFunctions(r, img)
	addRegisteredKernels(r, img)
	if o.EmitKernelNames {
		addKernelNames(r, img)
	}
	return r, nil
}

// addSpecConsts adds the two spec-constant sets: the descriptors of every
// constant, as consecutive little-endian {ID, offset, size} words, and the
// default-value blob under "all".
func addSpecConsts(r *Registry, scs []SpecConst, defaults []byte) {
	s := r.Set(SetSpecConstants)
	for _, sc := range scs {
		words := make([]uint32, 0, 3*len(sc.Descs))
		for _, d := range sc.Descs {
			words = append(words, d.ID, d.Offset, d.Size)
		}
		s.Add(NewUint32Array(sc.SymID, words))
	}
	r.Add(SetSpecConstantsDefaults, NewByteArray("all", defaults))
}

// isSPIROrSPIRV reports whether the triple is SPIR or SPIR-V.
func isSPIROrSPIRV(triple string) bool {
	arch := triple
	for i := 0; i < len(triple); i++ {
		if triple[i] == '-' {
			arch = triple[:i]
			break
		}
	}
	switch arch {
	case "spir", "spir64", "spirv", "spirv32", "spirv64":
		return true
	}
	return len(arch) > 5 && arch[:5] == "spirv"
}

// spirKernels returns the image's functions with the spir_kernel calling
// convention, in module order.
func (img *Image) spirKernels() []*llvmir.Entity {
	var out []*llvmir.Entity
	for _, f := range img.functions() {
		if f.Func.CallingConv == "spir_kernel" {
			out = append(out, f)
		}
	}
	return out
}
