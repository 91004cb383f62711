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
// sycl-post-link, clang-offload-wrapper, clang-sycl-linker), sycbuild acts
// as that tool.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/sycbuild/sycbuild/dpcpp/filetabletform"
	"github.com/sycbuild/sycbuild/dpcpp/llvmforeach"
	"github.com/sycbuild/sycbuild/dpcpp/moduleid"
	"github.com/sycbuild/sycbuild/dpcpp/offloadwrapper"
	"github.com/sycbuild/sycbuild/dpcpp/sycllinker"
	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/suggest"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/pipeline"
	"github.com/sycbuild/sycbuild/slurm"
)

// toolMains are the in-process tools, by the name of the DPC++ tool each
// replaces.
var toolMains = map[string]clopt.Main{
	filetabletform.Name: filetabletform.Main,
	llvmforeach.Name:    llvmforeach.Main,
	syclpostlink.Name:   syclpostlink.Main,
	offloadwrapper.Name: offloadwrapper.Main,
	moduleid.Name:       moduleid.Main,
	sycllinker.Name:     sycllinker.Main,
}

func main() {
	// This program started again as the guard of its tools' process
	// groups (jobs.UseGuard) does that alone.
	if jobs.ServeGuard() {
		return
	}
	// A Slurm step's commands need no guard of their own: slurmstepd ends
	// every process of a step it stops, and a guard would be one more
	// process to start per step.
	if len(os.Args) > 1 && os.Args[1] == slurm.StepCommand {
		os.Exit(slurm.StepMain(os.Args[2:], os.Stderr))
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
		case pipeline.ToolsCommand:
			return pipeline.ToolsMain(args[1:], stdio.Out, stdio.Err)
		default:
			if m, ok := toolMains[name]; ok {
				return m(name, args[1:], stdio)
			}
			if msg := unknownCommand(name); msg != "" {
				fmt.Fprintln(stdio.Err, "sycbuild: "+msg)
				return exitUsage
			}
		}
	}
	return build(args, stdio)
}

// unknownCommand says why the first argument, which is no command, is no
// device input either ("" when it may be one): a device input ends in .ll
// or .bc, so "sycbuild sycl-postlink" is a mistyped command, not a build of
// a file the config then cannot find.
func unknownCommand(arg string) string {
	if strings.HasPrefix(arg, "-") || strings.HasSuffix(arg, ".ll") || strings.HasSuffix(arg, ".bc") {
		return ""
	}
	commands := []string{"graph", "cache", "version", "help"}
	for n := range toolMains {
		commands = append(commands, n)
	}
	sort.Strings(commands)
	msg := fmt.Sprintf("unknown command %q", arg)
	if m := suggest.Closest(arg, commands); m != "" {
		msg += fmt.Sprintf("; did you mean %q?", m)
	}
	return msg + " ('sycbuild help' lists the commands; device inputs end in .ll or .bc)"
}

// version is set at link time (-ldflags "-X main.version=…", as the
// Makefile does from git describe); otherwise the build information says
// which sycbuild this is.
var version = ""

func versionString() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionOf is the version line: the version set at link time, else the
// module's version (what "go install …@v1.2.3" and a build in a tagged
// checkout record), else "devel"; then what the build information adds:
// the commit, its time and whether the tree was modified, and the Go
// release that built it.
func versionOf(linked string, bi *debug.BuildInfo) string {
	v := linked
	var details []string
	if bi != nil {
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		vcs := map[string]string{}
		for _, s := range bi.Settings {
			vcs[s.Key] = s.Value
		}
		if rev := vcs["vcs.revision"]; rev != "" {
			details = append(details, "commit "+rev[:min(len(rev), 12)])
		}
		if t := vcs["vcs.time"]; t != "" {
			details = append(details, t)
		}
		if vcs["vcs.modified"] == "true" {
			details = append(details, "modified")
		}
		if bi.GoVersion != "" {
			details = append(details, bi.GoVersion)
		}
	}
	if v == "" {
		v = "devel"
	}
	if len(details) > 0 {
		v += " (" + strings.Join(details, ", ") + ")"
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

Run on a cluster's nodes by the slurm executor (docs/slurm.md):
  sycbuild slurm-step …, sycbuild slurm-tools …

Tools (also selected by invoking sycbuild through a link with the tool's name):
  %s

Run 'sycbuild <tool> --help' for a tool's options and 'sycbuild -config targets.yaml -h' for the build flags.
`, strings.Join(names, "\n  "))
}
