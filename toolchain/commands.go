package toolchain

import (
	"bytes"
	"strings"
)

// Command lines of the external tools, as the DPC++ driver runs them (see
// the project's toolchain reference). Each function returns the arguments
// after the executable; in, out and the like may be fan-out placeholders.
// Extra options from the config come last, so they can override.

// SPIRVExtensions is the SPIR-V extension list the DPC++ driver enables
// for llvm-spirv (from intel/llvm's libdevice build); llvm-spirv-15 knows
// every entry. Enabling "+all" instead would also let the translator emit
// capabilities (Shader, Matrix) that OpenCL consumers reject.
var SPIRVExtensions = []string{
	"-all",
	"+SPV_EXT_shader_atomic_float_add",
	"+SPV_EXT_shader_atomic_float_min_max",
	"+SPV_KHR_no_integer_wrap_decoration",
	"+SPV_KHR_float_controls",
	"+SPV_KHR_expect_assume",
	"+SPV_KHR_linkonce_odr",
	"+SPV_INTEL_subgroups",
	"+SPV_INTEL_media_block_io",
	"+SPV_INTEL_device_side_avc_motion_estimation",
	"+SPV_INTEL_fpga_loop_controls",
	"+SPV_INTEL_unstructured_loop_controls",
	"+SPV_INTEL_fpga_reg",
	"+SPV_INTEL_blocking_pipes",
	"+SPV_INTEL_function_pointers",
	"+SPV_INTEL_kernel_attributes",
	"+SPV_INTEL_io_pipes",
	"+SPV_INTEL_inline_assembly",
	"+SPV_INTEL_arbitrary_precision_integers",
	"+SPV_INTEL_float_controls2",
	"+SPV_INTEL_vector_compute",
	"+SPV_INTEL_fast_composite",
	"+SPV_INTEL_arbitrary_precision_fixed_point",
	"+SPV_INTEL_arbitrary_precision_floating_point",
	"+SPV_INTEL_variable_length_array",
	"+SPV_INTEL_fp_fast_math_mode",
	"+SPV_INTEL_long_constant_composite",
	"+SPV_INTEL_arithmetic_fence",
	"+SPV_INTEL_token_type",
	"+SPV_INTEL_bfloat16_conversion",
	"+SPV_INTEL_joint_matrix",
	"+SPV_INTEL_hw_thread_queries",
	"+SPV_KHR_uniform_group_instructions",
}

// LLVMLinkArgs links inputs into one textual module.
func LLVMLinkArgs(out string, inputs []string, extra []string) []string {
	args := append([]string{"-S", "-o", out}, inputs...)
	return append(args, extra...)
}

// LLVMSPIRVArgs translates bitcode to SPIR-V with the DPC++ options.
func LLVMSPIRVArgs(in, out string, extra []string) []string {
	args := []string{
		"-spirv-max-version=1.4",
		"-spirv-debug-info-version=ocl-100",
		"-spirv-allow-extra-diexpressions",
		"-spirv-allow-unknown-intrinsics=llvm.genx.",
		"-spirv-ext=" + strings.Join(SPIRVExtensions, ","),
		in, "-o", out,
	}
	return append(args, extra...)
}

// SPIRVValArgs validates one SPIR-V module (ocloc does not).
func SPIRVValArgs(in string, extra []string) []string {
	return append([]string{in}, extra...)
}

// OclocArgs compiles SPIR-V for Intel GPUs: all devices in one call, which
// writes one file, exactly out (a fat binary when there are several). It
// does not pass -q: that also silences ocloc's error messages ("Error:
// Cannot get HW Info for device …"); its success lines are OclocChatter.
func OclocArgs(in, out string, devices, extra []string) []string {
	args := []string{"compile", "-file", in, "-spirv_input", "-device", strings.Join(devices, ","),
		"-output", out, "-output_no_suffix"}
	return append(args, extra...)
}

// OclocChatter are the lines ocloc prints on every successful compile
// (graph.Tool.Chatter): for several devices, one line per device.
var OclocChatter = []string{"Compilation from IR - skipping loading of FCL", "Build succeeded.", "Build succeeded for : *"}

// LLCArgs compiles LLVM IR to PTX for arch (sm_90).
func LLCArgs(in, out, arch string, extra []string) []string {
	args := []string{"-march=nvptx64", "-mcpu=" + arch, in, "-o", out}
	return append(args, extra...)
}

// PtxasArgs assembles PTX into a cubin for arch.
func PtxasArgs(in, out, arch string, extra []string) []string {
	args := []string{"-arch=" + arch, in, "-o", out}
	return append(args, extra...)
}

// FatbinaryArgs packs a cubin and its PTX (for JIT on newer GPUs) into a
// CUDA fat binary.
func FatbinaryArgs(ptx, cubin, out, arch string, extra []string) []string {
	sm := strings.TrimPrefix(arch, "sm_")
	args := []string{"-64", "--create=" + out,
		"--image3=kind=elf,sm=" + sm + ",file=" + cubin,
		"--image3=kind=ptx,sm=" + sm + ",file=" + ptx}
	return append(args, extra...)
}

// OclocBatchLine returns the line of an "ocloc multi" list file that runs
// the compile command argv (OclocArgs after the executable's name, and
// extra options) writing its output under name in place of out; abs makes
// its input's path absolute (the list runs in another directory). ok is
// false where the line could differ from the command: other options than
// these, a word with a blank, quote or backslash (the list is split at
// blanks), no -output_no_suffix (ocloc would name the output after the
// device).
func OclocBatchLine(argv []string, out, name string, abs func(string) string) (line string, ok bool) {
	if len(argv) < 2 || argv[1] != "compile" {
		return "", false
	}
	var words []string
	seen := map[string]bool{}
	for i := 2; i < len(argv); i++ {
		a := argv[i]
		if strings.ContainsAny(a, " \t\n\r\v\f'\"\\") {
			return "", false
		}
		switch a {
		case "-spirv_input", "-output_no_suffix", "-q", "-32", "-64":
			words = append(words, a)
			seen[a] = true
			continue
		case "-file", "-output", "-device", "-options", "-internal_options", "-revision_id":
		default:
			return "", false
		}
		if i+1 == len(argv) || seen[a] || strings.ContainsAny(argv[i+1], " \t\n\r\v\f'\"\\") {
			return "", false
		}
		seen[a] = true
		i++
		v := argv[i]
		switch a {
		case "-file":
			v = abs(v)
		case "-output":
			if v != out {
				return "", false
			}
			v = name
		}
		words = append(words, a, v)
	}
	if !seen["-file"] || !seen["-output"] || !seen["-output_no_suffix"] {
		return "", false
	}
	return strings.Join(words, " "), true
}

// OclocMultiArgs runs the lines of the list file list as "ocloc multi"
// does (after the executable's name): in order, stopping at the first that
// fails, and writing no output then.
func OclocMultiArgs(list string) []string { return []string{"multi", list} }

// OclocMultiOutputs is the directory "ocloc multi list" writes its outputs
// into, relative to where it runs: the list file's name without its
// extension.
func OclocMultiOutputs(list string) string {
	base := list[strings.LastIndexByte(list, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// OclocMultiSplit cuts what "ocloc multi" printed into each line's part:
// it begins each with "Command number <n>: ", and ends with a summary,
// "Build command <n>: successful" per line, which is no line's. nil when
// the parts are not the lines' number.
func OclocMultiSplit(out []byte, lines int) [][]byte {
	var parts [][]byte
	for len(out) > 0 {
		nl := len(out)
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			nl = i + 1
		}
		l := out[:nl]
		out = out[nl:]
		if bytes.HasPrefix(l, []byte("Command number ")) {
			parts = append(parts, nil)
			continue
		}
		if bytes.HasPrefix(l, []byte("Build command ")) && bytes.HasSuffix(bytes.TrimRight(l, "\r\n"), []byte(": successful")) {
			continue
		}
		if len(parts) == 0 {
			return nil
		}
		parts[len(parts)-1] = append(parts[len(parts)-1], l...)
	}
	if len(parts) != lines {
		return nil
	}
	return parts
}
