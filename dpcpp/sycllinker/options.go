// Package sycllinker is sycbuild's clang-sycl-linker: the device link step
// that LLVM 22's clang-linker-wrapper runs for SYCL (through
// `clang --sycl-link`), with LLVM 22's command line and output contract.
//
//	sycbuild clang-sycl-linker --triple=spirv64 [--arch=A] -o out a.bc b.bc
//
// By default it makes what clang-sycl-linker-22 makes: the inputs (LLVM
// bitcode) linked with llvm-link-22 (device libraries of the same triple
// after them, only what is needed), compiled as one module by LLVM's SPIR-V
// backend (llc-22 -mtriple=<triple> -filetype=obj), and written to -o as one
// OffloadBinary: offload kind sycl, image kind none, the strings "triple"
// and "arch" as given and "symbols", the module's kernels in module order
// joined by "\n". clang-linker-wrapper-22 registers each binary of that file
// as one device image. Like LLVM 22's tool it compiles ahead of time for the
// two Intel architectures LLVM 22 knows (--arch=bmg_g21 runs ocloc,
// --arch=graniterapids opencl-aot; any other --arch is only recorded), and
// -v and --dry-run print what it prints: "sycl-device-link: inputs: …",
// "SPIR-V Backend: input: …" and the ahead-of-time command, quoted.
//
// With sycbuild's options (--sycbuild-split, --sycbuild-spec-constants,
// --sycbuild-properties, or the environment variables SYCBUILD_SPLIT,
// SYCBUILD_SPEC_CONSTANTS and SYCBUILD_PROPERTIES, which reach the tool
// when the upstream driver runs it), or an ahead-of-time triple
// (spir64_gen), the linked module goes through sycbuild's sycl-post-link
// instead: split, specialization constants lowered, symbols and property
// sets; every module is compiled by llc-22's SPIR-V backend as sycbuild
// builds spir64 (SPIR-V 1.3 with the DPC++ extensions llc-22 knows), for
// spir64_gen then by ocloc for the device --arch names, and the output holds
// one OffloadBinary per module, with its property sets under "properties".
//
// --dry-run prints the commands (on sycbuild's route every command, as a
// shell line) and writes nothing. Where LLVM 22's tool is loose, this one
// is strict: an input that does not exist is an error (clang-sycl-linker-22
// skips it), and nothing but the output is left beside it
// (clang-sycl-linker-22 leaves <stem>_0.spv there); --save-temps keeps the
// intermediate files (in <output>.temps, and <stem>_<i>.spv beside the
// output on LLVM 22's route).
package sycllinker

import (
	"fmt"
	"io"
	"strings"

	"github.com/sycbuild/sycbuild/internal/clopt"
)

const overview = `A utility that wraps around several steps required to link SYCL device files.
This enables LLVM IR linking, post-linking and code generation for SYCL targets.
(sycbuild: with --sycbuild-* options or SYCBUILD_* settings, also split,
specialization constants, property sets and ahead-of-time compilation.)`

// Options are what one run is told. Paths are as given.
type Options struct {
	Inputs []string
	Output string
	// Triple and Arch are --triple and --arch, copied into every image.
	Triple, Arch string
	// DeviceLibs are --device-libs, relative to LibraryPath.
	DeviceLibs  []string
	LibraryPath string
	// OclocOptions and OpenCLAOTOptions are extra options split at blanks.
	OclocOptions, OpenCLAOTOptions                string
	DryRun, SaveTemps, PrintLinkedModule, Verbose bool
	// SPIRVDumpDir, when set, receives a copy of every SPIR-V module.
	SPIRVDumpDir string

	// Split is sycbuild's split mode (off, kernel, source, auto); "" is
	// clang-sycl-linker-22's behaviour, one module.
	Split string
	// SpecConstants is native or emulation ("" chooses: native for SPIR-V,
	// emulation ahead of time).
	SpecConstants string
	// Properties writes each image's property sets under "properties".
	Properties bool
}

// Sycbuild reports whether the run goes through sycbuild's post-link
// route instead of clang-sycl-linker-22's.
func (o *Options) Sycbuild() bool {
	return o.Split != "" || o.SpecConstants != "" || o.Properties || o.AOT()
}

// AOT reports whether the triple asks for ahead-of-time code for Intel
// GPUs (spir64_gen), which clang-sycl-linker-22 refuses.
func (o *Options) AOT() bool {
	return strings.HasPrefix(o.Triple, "spir64_gen")
}

// Environment variables that set sycbuild's options where the command line
// cannot be reached (the driver runs the tool); the command line wins.
const (
	EnvSplit         = "SYCBUILD_SPLIT"
	EnvSpecConstants = "SYCBUILD_SPEC_CONSTANTS"
	EnvProperties    = "SYCBUILD_PROPERTIES"
)

var splitModes = []clopt.EnumValue{
	{Name: "off", Help: "One module (sycl-post-link without -split)"},
	{Name: "kernel", Help: "One module per kernel"},
	{Name: "source", Help: "One module per translation unit"},
	{Name: "auto", Help: "sycl-post-link's choice"},
}

var specModes = []clopt.EnumValue{
	{Name: "native", Help: "SPIR-V specialization constants"},
	{Name: "emulation", Help: "Values read from the kernel's buffer argument"},
}

// Parse parses a clang-sycl-linker command line (without the program
// name); getenv reads the SYCBUILD_* settings (nil: none). argv0 names the
// tool in errors. On --help or --version it prints to out and returns
// clopt.ErrHelp.
func Parse(argv0 string, args []string, getenv func(string) string, out io.Writer) (Options, error) {
	s := clopt.New(argv0, overview, "[options] <options to sycl link steps>")
	s.Version = "clang-sycl-linker (sycbuild) for LLVM 22"
	arch := s.String("arch", "arch", "", "The device architecture")
	libs := s.List("device-libs", "value", "A comma separated list of device libraries that are linked during the device link.")
	dryRun := s.Bool("dry-run", "Print generated commands without running.")
	libPath := s.String("library-path", "value", "", "Add <dir> to the library search path")
	ocloc := s.String("ocloc-options", "value", "", "Options passed to ocloc for Intel GPU AOT compilation")
	aot := s.String("opencl-aot-options", "value", "", "Options passed to opencl-aot for Intel CPU AOT compilation")
	output := s.String("o", "path", "", "Path to file to write output")
	s.Alias("output-file", "o")
	printLinked := s.Bool("print-linked-module", "Print the linked module's IR for testing")
	saveTemps := s.Bool("save-temps", "Save intermediate results")
	dump := s.String("spirv-dump-device-code", "value", "", "Path to the folder where the tool dumps SPIR-V device code. Other formats aren't dumped.")
	triple := s.String("triple", "triple", "", "The device target triple")
	verbose := s.Bool("v", "Print verbose information")
	split := s.Enum("sycbuild-split", "", "sycbuild: split the linked module (as sycl-post-link -split)", splitModes)
	spec := s.Enum("sycbuild-spec-constants", "", "sycbuild: lower specialization constants", specModes)
	props := s.Bool("sycbuild-properties", "sycbuild: write each image's property sets")
	// LLVM's option tables take the value of an option declared with '='
	// after a repeated option, the last one winning; clopt refuses a
	// repeated single-valued option, so the driver's repeats (-arch= from
	// -Xlinker, then the user's) are reduced to the last first.
	if err := s.Parse(lastOnly(args, "triple", "arch", "ocloc-options", "opencl-aot-options", "library-path", "spirv-dump-device-code"), out); err != nil {
		return Options{}, err
	}
	o := Options{
		Inputs: s.PositionalValues(), Output: *output, Triple: *triple, Arch: *arch,
		LibraryPath: *libPath, OclocOptions: *ocloc, OpenCLAOTOptions: *aot,
		DryRun: *dryRun, SaveTemps: *saveTemps, PrintLinkedModule: *printLinked, Verbose: *verbose,
		SPIRVDumpDir: *dump, Split: *split, SpecConstants: *spec, Properties: *props,
	}
	if s.Given("spirv-dump-device-code") && o.SPIRVDumpDir == "" {
		o.SPIRVDumpDir = "."
	}
	if n := len(*libs); n > 0 {
		for _, v := range strings.Split((*libs)[n-1].Value, ",") {
			if v != "" {
				o.DeviceLibs = append(o.DeviceLibs, v)
			}
		}
		if len(o.DeviceLibs) == 0 {
			return Options{}, &clopt.Error{Msg: argv0 + ": error: Number of device library files cannot be zero."}
		}
	}
	if getenv != nil {
		if err := fromEnv(argv0, &o, s, getenv); err != nil {
			return Options{}, err
		}
	}
	switch {
	case !s.Given("o"):
		return Options{}, &clopt.Error{Msg: argv0 + ": error: Output file must be specified"}
	case !s.Given("triple"):
		return Options{}, &clopt.Error{Msg: argv0 + ": error: Target triple must be specified"}
	case len(o.Inputs) == 0:
		return Options{}, &clopt.Error{Msg: argv0 + ": error: no input files"}
	case o.AOT() && o.Arch == "":
		return Options{}, &clopt.Error{Msg: argv0 + ": error: Arch must be specified for AOT compilation (--arch=<ocloc device>, e.g. pvc)"}
	case o.AOT() && o.SpecConstants == "native":
		return Options{}, &clopt.Error{Msg: argv0 + ": error: --sycbuild-spec-constants=native: ahead-of-time images take emulated specialization constants"}
	}
	return o, nil
}

// fromEnv fills the sycbuild options the command line left unset from
// the environment.
func fromEnv(argv0 string, o *Options, s *clopt.Set, getenv func(string) string) error {
	check := func(env, v string, values []clopt.EnumValue) error {
		for _, e := range values {
			if e.Name == v {
				return nil
			}
		}
		var names []string
		for _, e := range values {
			names = append(names, e.Name)
		}
		return &clopt.Error{Msg: fmt.Sprintf("%s: error: %s=%q: want one of %s", argv0, env, v, strings.Join(names, ", "))}
	}
	if v := getenv(EnvSplit); v != "" && !s.Given("sycbuild-split") {
		if err := check(EnvSplit, v, splitModes); err != nil {
			return err
		}
		o.Split = v
	}
	if v := getenv(EnvSpecConstants); v != "" && !s.Given("sycbuild-spec-constants") {
		if err := check(EnvSpecConstants, v, specModes); err != nil {
			return err
		}
		o.SpecConstants = v
	}
	if v := getenv(EnvProperties); v != "" && !s.Given("sycbuild-properties") {
		switch v {
		case "1", "true":
			o.Properties = true
		case "0", "false":
		default:
			return &clopt.Error{Msg: fmt.Sprintf("%s: error: %s=%q: want 1 or 0", argv0, EnvProperties, v)}
		}
	}
	return nil
}

// lastOnly drops every occurrence of the named single-valued options but
// the last, as LLVM's OptTable's getLastArgValue reads them.
func lastOnly(args []string, names ...string) []string {
	name := func(a string) string {
		if len(a) < 2 || a[0] != '-' {
			return ""
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		return n
	}
	last := map[string]int{}
	for i, a := range args {
		if a == "--" {
			break
		}
		last[name(a)] = i
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		n := name(a)
		if want[n] && last[n] != i && strings.Contains(a, "=") {
			continue
		}
		out = append(out, a)
	}
	return out
}
