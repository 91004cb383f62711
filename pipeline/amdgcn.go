package pipeline

import (
	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/toolchain"
)

// amdgcnNeed lists the tools of an amdgcn target, all of LLVM 22.
func amdgcnNeed() ([]configs.Tool, map[configs.Tool]int) {
	return []configs.Tool{configs.ToolLLC, configs.ToolLLD, configs.ToolBundler},
		map[configs.Tool]int{configs.ToolLLC: toolchain.AMDGCNLLVM, configs.ToolLLD: toolchain.AMDGCNLLVM, configs.ToolBundler: toolchain.AMDGCNLLVM}
}

// amdgcnSteps adds an amdgcn target's per-module steps, DPC++'s HIP
// device link: llc writes the module's relocatable object for the GPU
// (module_<i>.o), ld.lld links it into a code object (module_<i>.hsaco),
// and clang-offload-bundler wraps that in the HIP offload bundle the SYCL
// HIP adapter loads (module_<i>.hipfb), the image.
func (p *planner) amdgcnSteps(t *target, f *graph.Fanout,
	step func(configs.Tool, []string, []graph.StepInput, string), from func(string) int) {
	tc := t.cfg
	opts := func(role configs.Tool) []string { return tc.Options[role] }
	step(configs.ToolLLC, toolchain.AMDGCNLLCArgs(ph("ll"), ph("o"), tc.Arch, opts(configs.ToolLLC)), []graph.StepInput{{Placeholder: ph("ll"), From: -1}}, "o")
	// llc's usual output check is for PTX; here it writes an ELF object.
	f.Steps[len(f.Steps)-1].Tool.Check = toolchain.CheckELF
	step(configs.ToolLLD, toolchain.LLDArgs(ph("o"), ph("hsaco"), opts(configs.ToolLLD)), []graph.StepInput{{Placeholder: ph("o"), From: from("o")}}, "hsaco")
	step(configs.ToolBundler, toolchain.BundlerArgs(ph("hsaco"), ph("hipfb"), tc.Arch, p.cfg.Host, opts(configs.ToolBundler)),
		[]graph.StepInput{{Placeholder: ph("hsaco"), From: from("hsaco")}}, "hipfb")
}
