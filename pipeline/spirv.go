package pipeline

import (
	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/toolchain"
)

// spirvRoute is how target tc makes SPIR-V from the inputs: what its
// spirv: key says, or else LLVM's SPIR-V backend when the IR is newer than
// llvm-spirv-15 reads, the translator otherwise.
func spirvRoute(tc *configs.Target, in *inputSet) configs.SPIRVRoute {
	if tc.SPIRV != "" {
		return tc.SPIRV
	}
	if in.llvm > 15 {
		return configs.SPIRVBackend
	}
	return configs.SPIRVTranslator
}

// backendNeed lists the tools of a SPIR-V kind on the backend route, with
// their LLVM generation (spirv-val, optional, is found separately).
func backendNeed(k configs.Kind) (roles []configs.Tool, llvm map[configs.Tool]int) {
	llvm = map[configs.Tool]int{configs.ToolLLC: toolchain.SPIRVBackendLLVM}
	if k == configs.SPIR64Gen {
		return []configs.Tool{configs.ToolLLC, configs.ToolOcloc}, llvm
	}
	return []configs.Tool{configs.ToolLLC}, llvm
}

// backendStep is the fan-out step compiling module_<i>.bc to
// module_<i>.spv with LLVM's SPIR-V backend. Its output is checked as
// SPIR-V (llc's usual check is for PTX).
func (p *planner) backendStep(t *target, at func(string) string) *graph.Step {
	gt := graphTool(t.tools[configs.ToolLLC])
	gt.Check = toolchain.CheckSPIRV
	return &graph.Step{
		Tool: gt,
		Args: toolchain.LLCSPIRVArgs(ph("bc"), ph("spv"), t.cfg.Options[configs.ToolLLC]),
		In:   []graph.StepInput{{Placeholder: ph("bc"), From: -1}},
		Out:  &graph.StepOutput{Placeholder: ph("spv"), Ext: "spv", List: p.g.File(at("spv.list"), graph.List)},
	}
}
