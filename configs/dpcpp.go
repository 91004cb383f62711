package configs

import (
	"fmt"
	"strings"
)

// DPC++ spells some of the config's values its own way (-fsycl-targets=
// intel_gpu_pvc, sycl-post-link -split=kernel). A config written from a
// DPC++ command line is told the config's spelling.

// dpcppSplit returns the split mode DPC++'s sycl-post-link spelling s
// stands for, or "".
func dpcppSplit(s Split) Split {
	switch s {
	case "kernel":
		return SplitPerKernel
	case "source":
		return SplitPerSource
	}
	return ""
}

// dpcppKind says what a DPC++ -fsycl-targets value is in a config ("" for
// a value that is none): "kind: spir64_gen with devices: [pvc]" for
// intel_gpu_pvc.
func dpcppKind(k Kind) string {
	s := string(k)
	switch {
	case strings.HasPrefix(s, "intel_gpu_") && len(s) > len("intel_gpu_"):
		dev := strings.ReplaceAll(strings.TrimPrefix(s, "intel_gpu_"), "_", "-")
		return fmt.Sprintf("kind: %s with devices: [%s]", SPIR64Gen, dev)
	case strings.HasPrefix(s, "nvidia_gpu_sm_"):
		return fmt.Sprintf("kind: %s with arch: %s", NVPTX64, strings.TrimPrefix(s, "nvidia_gpu_"))
	case s == "spir64_x86_64" || s == "intel_cpu" || strings.HasPrefix(s, "intel_cpu_"):
		return "ahead-of-time code for CPUs, which sycbuild does not build (kind: spir64 gives SPIR-V, which the CPU runtime compiles)"
	case strings.HasPrefix(s, "amd_gpu_") || strings.HasPrefix(s, "amdgcn"):
		return "code for AMD GPUs, which sycbuild does not build"
	case s == "spirv64" || s == "spir":
		return fmt.Sprintf("kind: %s", SPIR64)
	}
	return ""
}

// splitHint is the "did you mean" of an unknown split mode: its config
// spelling for a DPC++ one, else the closest mode.
func splitHint(s Split) string {
	if m := dpcppSplit(s); m != "" {
		return fmt.Sprintf("; did you mean %q? (DPC++'s -split=%s)", m, s)
	}
	return didYouMean(string(s), toolNames(Splits))
}
