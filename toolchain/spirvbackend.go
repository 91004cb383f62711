package toolchain

import (
	"io"
	"strings"
)

// SPIRVBackendTriple is the target of LLVM's SPIR-V backend as sycbuild
// runs it: SPIR-V 1.3. At llc-22's default, 1.4, `icmp eq ptr %p, null`
// becomes OpPtrEqual, which ocloc (IGC) rejects; ocloc builds nothing from
// SPIR-V 1.5 or 1.6.
const SPIRVBackendTriple = "spirv64v1.3-unknown-unknown"

// SPIRVBackendLLVM is the LLVM generation of the SPIR-V backend sycbuild
// runs (llc-22); it reads the IR of LLVM 15 to 22.
const SPIRVBackendLLVM = 22

// backendUnknown are the extensions of SPIRVExtensions that llc-22's
// --spirv-ext does not know (it refuses the whole list for one of them).
var backendUnknown = map[string]bool{
	"SPV_INTEL_device_side_avc_motion_estimation":  true,
	"SPV_INTEL_fpga_loop_controls":                 true,
	"SPV_INTEL_unstructured_loop_controls":         true,
	"SPV_INTEL_fpga_reg":                           true,
	"SPV_INTEL_blocking_pipes":                     true,
	"SPV_INTEL_io_pipes":                           true,
	"SPV_INTEL_arbitrary_precision_integers":       true,
	"SPV_INTEL_vector_compute":                     true,
	"SPV_INTEL_fast_composite":                     true,
	"SPV_INTEL_arbitrary_precision_fixed_point":    true,
	"SPV_INTEL_arbitrary_precision_floating_point": true,
	"SPV_INTEL_fp_fast_math_mode":                  true,
	"SPV_INTEL_long_constant_composite":            true,
	"SPV_INTEL_arithmetic_fence":                   true,
	"SPV_INTEL_token_type":                         true,
	"SPV_INTEL_hw_thread_queries":                  true,
}

// SPIRVBackendExtensions is the DPC++ extension list (SPIRVExtensions)
// without the extensions llc-22 does not know, as llc's --spirv-ext takes
// it: "+"-prefixed names, no "-all".
var SPIRVBackendExtensions = func() []string {
	var exts []string
	for _, e := range SPIRVExtensions {
		name, ok := strings.CutPrefix(e, "+")
		if ok && !backendUnknown[name] {
			exts = append(exts, e)
		}
	}
	return exts
}()

// LLCSPIRVArgs compiles LLVM IR (text or bitcode) to a SPIR-V module with
// LLVM's SPIR-V backend.
func LLCSPIRVArgs(in, out string, extra []string) []string {
	args := []string{"-mtriple=" + SPIRVBackendTriple, "-filetype=obj",
		"--spirv-ext=" + strings.Join(SPIRVBackendExtensions, ","), in, "-o", out}
	return append(args, extra...)
}

// CheckSPIRV checks that a file starts like a SPIR-V module (a Check); it
// is the output check of llc when llc writes SPIR-V (OutputCheck("llc")
// checks PTX).
func CheckSPIRV(head []byte, size int64, r io.ReaderAt) error { return checkSPIRV(head, size, r) }
