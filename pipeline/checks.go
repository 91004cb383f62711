package pipeline

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/internal/suggest"
	"github.com/sycbuild/sycbuild/toolchain"
)

// The checks here need what configs cannot know when it loads the file:
// the tools found and the SPIR-V route the inputs chose. Each problem is
// reported at the config's line:col before anything runs.

// checkDevices checks a spir64_gen target's devices against the ones its
// ocloc lists (toolchain.VersionCache.OclocDevices): a device ocloc does not
// know would fail every module's compile, and isolation and fallback could
// only hide that.
func (p *planner) checkDevices(tc *configs.Target, ocloc *toolchain.Tool) errorList {
	known, err := p.opt.Versions.OclocDevices(p.toolPath(ocloc.Path))
	if err != nil || len(known) == 0 {
		return nil // an ocloc whose help lists no devices: ocloc decides
	}
	var errs errorList
	for j, d := range tc.Devices {
		if toolchain.OclocDevice(d, known) {
			continue
		}
		loc := p.cfg.DeviceLoc(tc, j)
		hint := ""
		if m := suggest.Closest(d, known); m != "" {
			hint = fmt.Sprintf("; did you mean %q?", m)
		}
		errs = append(errs, loc.Error("%s: %s (%s) does not know the device %q%s (it knows %s, an IP version such as 12.60.7, or a PCI id such as 0x0bd5)",
			loc.Path, ocloc.Path, strings.TrimSpace(strings.Trim(ocloc.Version, "\x00")), d, hint, strings.Join(known, ", ")))
	}
	return errs
}

// toolPath is a tool's path as this process runs it: a path relative to
// the config's directory is resolved, a name is left for PATH.
func (p *planner) toolPath(name string) string {
	if strings.Contains(name, "/") {
		if at := p.path(name); strings.Contains(at, "/") {
			return at
		} else {
			return "./" + at // a path, not a name to look up on PATH
		}
	}
	if exe, err := exec.LookPath(name); err == nil {
		return exe
	}
	return name
}

// checkRouteOptions refuses options for a tool that the target's SPIR-V
// route does not run: dropping them silently would build something other
// than what the config asks for. No route runs llvm-as any more
// (sycl-post-link writes the bitcode itself); its options, which older
// configs may hold, are refused on either route.
func (p *planner) checkRouteOptions(t *target, why string) errorList {
	var errs errorList
	if _, given := t.cfg.Options[configs.ToolLLVMAs]; given {
		loc := p.cfg.OptionsLoc(t.cfg, configs.ToolLLVMAs)
		errs = append(errs, loc.Error("%s: target %s does not run llvm-as: sycl-post-link writes the modules' bitcode itself; remove these options",
			loc.Path, t.cfg.Name))
	}
	var unused []configs.Tool
	switch t.route {
	case configs.SPIRVBackend:
		unused = []configs.Tool{configs.ToolLLVMSPIRV}
	case configs.SPIRVTranslator:
		unused = []configs.Tool{configs.ToolLLC}
	}
	for _, tool := range unused {
		if _, given := t.cfg.Options[tool]; !given {
			continue
		}
		loc := p.cfg.OptionsLoc(t.cfg, tool)
		errs = append(errs, loc.Error("%s: target %s does not run %s: it makes SPIR-V with %s%s; remove these options, or set spirv: to the route that runs %s",
			loc.Path, t.cfg.Name, tool, routeName(t.route), why, tool))
	}
	return errs
}

func routeName(r configs.SPIRVRoute) string {
	if r == configs.SPIRVBackend {
		return "LLVM's SPIR-V backend (spirv: llvm-backend)"
	}
	return "llvm-spirv (spirv: translator)"
}
