// Command sycbuild is the device-code link stage of a SYCL (DPC++) build as one
// program: a make-like executor for the whole stage (sycbuild -config
// targets.yaml) and drop-in replacements for the DPC++ tools it is made of.
//
//	sycbuild [build flags]              run the build described by a config
//	sycbuild graph [build flags]        write the build graph as DOT
//	sycbuild cache stats|clean          the shared local cache
//	sycbuild <tool> [args]              run one tool with its own command line
//	sycbuild version | help
//
// Invoked through a link named like a tool (file-table-tform, llvm-foreach,
// sycl-post-link, clang-offload-wrapper), sycbuild acts as that tool.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/tools/clopt"
	"github.com/sycbuild/sycbuild/tools/filetabletform"
	"github.com/sycbuild/sycbuild/tools/llvmforeach"
	"github.com/sycbuild/sycbuild/tools/moduleid"
	"github.com/sycbuild/sycbuild/tools/offloadwrapper"
	"github.com/sycbuild/sycbuild/tools/syclpostlink"
)

// toolMains are the in-process tools, by the name of the DPC++ tool each
// replaces.
var toolMains = map[string]clopt.Main{
	"file-table-tform":      filetabletform.Main,
	"llvm-foreach":          llvmforeach.Main,
	"sycl-post-link":        syclpostlink.Main,
	"clang-offload-wrapper": offloadwrapper.Main,
	"sycl-module-id":        moduleid.Main,
}

func main() {
	// This program started again as the guard of its tools' process
	// groups (jobs.UseGuard) does that alone.
	if jobs.ServeGuard() {
		return
	}
	jobs.UseGuard()
	os.Exit(run(os.Args, clopt.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

func run(argv []string, stdio clopt.Stdio) int {
	self := filepath.Base(argv[0])
	if m, ok := toolMains[strings.TrimSuffix(self, ".exe")]; ok {
		return m(self, argv[1:], stdio)
	}
	args := argv[1:]
	if len(args) > 0 {
		switch name := args[0]; name {
		case "version", "-version", "--version":
			fmt.Fprintln(stdio.Out, versionString())
			return 0
		case "help", "-help", "--help", "-h":
			usage(stdio.Out)
			return 0
		case "graph":
			return graphCommand(args[1:], stdio)
		case "cache":
			return cacheCommand(args[1:], stdio)
		default:
			if m, ok := toolMains[name]; ok {
				return m(name, args[1:], stdio)
			}
		}
	}
	return build(args, stdio)
}

// version is set at link time (-ldflags "-X main.version=…"); otherwise the
// module's build information names the revision.
var version = ""

func versionString() string {
	v := version
	if v == "" {
		v = "devel"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					v = "devel-" + s.Value[:12]
				}
			}
		}
	}
	return "sycbuild " + v
}

func usage(w io.Writer) {
	names := make([]string, 0, len(toolMains))
	for n := range toolMains {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, `sycbuild: the SYCL device-code link stage as one program.

Usage:
  sycbuild -config targets.yaml [build flags]   run the build the config describes
  sycbuild graph -config targets.yaml           write the build graph as DOT
  sycbuild cache stats|clean [-cache-dir DIR]   what the shared cache holds, or empty it
  sycbuild <tool> [tool args]                   run one in-process tool
  sycbuild version                              print the version
  sycbuild help                                 print this text

Tools (also selected by invoking sycbuild through a link with the tool's name):
  %s

Run 'sycbuild <tool> --help' for a tool's options and 'sycbuild -config targets.yaml -h' for the build flags.
`, strings.Join(names, "\n  "))
}
