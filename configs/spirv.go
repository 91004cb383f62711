package configs

// SPIRVRoute is how a spir64 or spir64_gen target makes SPIR-V from LLVM
// IR (the target's spirv: key).
type SPIRVRoute string

// The SPIR-V routes.
const (
	// SPIRVTranslator is llvm-spirv on the modules' bitcode, as the DPC++
	// driver runs it; llvm-spirv-15 reads only LLVM 15 bitcode.
	SPIRVTranslator SPIRVRoute = "translator"
	// SPIRVBackend is LLVM's own SPIR-V backend (llc -mtriple=spirv64…),
	// which reads the IR of its own LLVM and of every earlier one.
	SPIRVBackend SPIRVRoute = "llvm-backend"
)

// SPIRVRoutes lists the SPIR-V routes in documentation order.
var SPIRVRoutes = []SPIRVRoute{SPIRVBackend, SPIRVTranslator}

// WrapperFormat is the form of the device images in the output object
// (the config's wrapper: key).
type WrapperFormat string

// The wrapper formats.
const (
	// WrapperDPCPP is what DPC++'s clang-offload-wrapper writes: the
	// images in __CLANG_OFFLOAD_BUNDLE__ sections, registered with their
	// property sets.
	WrapperDPCPP WrapperFormat = "dpcpp"
	// WrapperOffloadBinary is upstream LLVM's form: every image in an
	// OffloadBinary container in .llvm.offloading, registered as LLVM 22's
	// clang-linker-wrapper registers SYCL images.
	WrapperOffloadBinary WrapperFormat = "offload-binary"
)

// WrapperFormats lists the wrapper formats in documentation order.
var WrapperFormats = []WrapperFormat{WrapperDPCPP, WrapperOffloadBinary}

// spirvRoute checks the target's spirv: key.
func (v *validator) spirvRoute(p string, t *Target) {
	switch {
	case t.SPIRV == "":
	case t.Kind != SPIR64 && t.Kind != SPIR64Gen:
		v.errorf(p+".spirv", "%s.spirv: only spir64 and spir64_gen targets make SPIR-V", p)
	case !oneOf(t.SPIRV, SPIRVRoutes):
		v.errorf(p+".spirv", "%s.spirv: unknown SPIR-V route %q (want %s)", p, t.SPIRV, list(SPIRVRoutes))
	}
}
