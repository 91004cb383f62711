package report

import (
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/pipeline"
)

// BuildSummary is what a report says was built and with which tools
// (Options.Config and Options.Tools):
// the config's inputs, split and host, each target with its devices,
// architecture, SPIR-V route, spec constants, fallback and extra options
// (or why it was skipped), and each tool with its version.
func BuildSummary(cfg *configs.Config, plan *pipeline.Plan) (config, tools []Setting) {
	config = []Setting{
		{Name: "inputs", Value: strings.Join(cfg.Inputs, ", ")},
		{Name: "split", Value: string(cfg.Split)},
		{Name: "host", Value: cfg.Host + " (" + string(cfg.Wrapper) + " wrapper)"},
	}
	for _, t := range cfg.Targets {
		v := []string{string(t.Kind)}
		if !slices.Contains(plan.Targets, t) {
			config = append(config, Setting{Name: "target " + t.Name, Value: string(t.Kind) + ": skipped (optional, its tools are missing)"})
			continue
		}
		if len(t.Devices) > 0 {
			v = append(v, "devices "+strings.Join(t.Devices, ", "))
		}
		if t.Arch != "" {
			v = append(v, "arch "+t.Arch)
		}
		if r, ok := plan.Routes[t.Name]; ok {
			v = append(v, "SPIR-V by "+string(r))
		}
		v = append(v, "spec constants "+string(t.SpecConstants))
		if t.AOTFallback != "" {
			v = append(v, "aot_fallback "+t.AOTFallback)
		}
		for _, tool := range configs.ExternalTools() {
			if args, ok := t.Options[tool]; ok {
				v = append(v, string(tool)+" options: "+strings.Join(args, " "))
			}
		}
		if args, ok := t.Options[configs.ToolPostLink]; ok {
			v = append(v, "sycl-post-link options: "+strings.Join(args, " "))
		}
		config = append(config, Setting{Name: "target " + t.Name, Value: strings.Join(v, "; ")})
	}
	for _, t := range plan.Tools {
		tools = append(tools, Setting{Name: t.Path, Value: string(t.Role) + ": " + cut(printable(t.Version), maxVersionText)})
	}
	return config, tools
}

// maxVersionText is the most of a tool's version text the page shows
// (spirv-val lists every SPIR-V environment it knows).
const maxVersionText = 120

// printable is s without control characters (ocloc's version file ends
// in a NUL), its spaces trimmed.
func printable(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s))
}
