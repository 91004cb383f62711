// Package syclpostlink is the command line of sycbuild's in-process
// sycl-post-link: it accepts the DPC++ tool's options (version A, plus the
// older spellings still found in build scripts), turns them into one
// postlink.Options value and runs postlink.Run.
package syclpostlink

import (
	"io"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/heapfloor"
	"github.com/sycbuild/sycbuild/internal/mapfile"
	"github.com/sycbuild/sycbuild/postlink"
)

const overview = `SYCL post-link device code processing tool.
This is a collection of utilities run on device code's LLVM IR before
handing off to back-end for further compilation or emitting SPIRV.
The utilities are:
- SYCL and ESIMD kernels can be split into separate modules with
  '-split-esimd' option. The option has no effect when there is only
  one type of kernels in the input module. Functions unreachable from
  any entry point (kernels and SYCL_EXTERNAL functions) are
  dropped from the resulting module(s).
- Module splitter to split a big input module into smaller ones.
  Groups kernels using function attribute 'sycl-module-id', i.e.
  kernels with the same values of the 'sycl-module-id' attribute will
  be put into the same module. If -split=kernel option is specified,
  one module per kernel will be emitted.
  '-split=auto' mode automatically selects the best way of splitting
  kernels into modules based on some heuristic.
- If -symbols options is also specified, then for each produced module
  a text file containing names of all spir kernels in it is generated.
- Specialization constant intrinsic transformer. Replaces symbolic
  ID-based intrinsics to integer ID-based ones to make them friendly
  for the SPIRV translator
Normally, the tool generates a number of files and "file table"
file listing all generated files in a table manner. For example, if
the input file 'example.bc' contains two kernels, then the command
  $ sycl-post-link --split=kernel --symbols --spec-const=native \
    --properties -o example.table example.bc
will produce 'example.table' file with the following content:
  [Code|Properties|Symbols]
  example_0.bc|example_0.prop|example_0.sym
  example_1.bc|example_1.prop|example_1.sym
When only specialization constant processing is needed, the tool can
output a single transformed IR file if --ir-output-only is specified:
  $ sycl-post-link --ir-output-only --spec-const=emulation \
    -o example_p.bc example.bc
will produce single output file example_p.bc suitable for SPIRV
translation.
--ir-output-only option is not compatible with split modes other
than 'auto'.
-lower-esimd lowers the ESIMD builtins __esimd_barrier,
__esimd_nbarrier_init and __esimd_slm_init and the loads of the
sub-group SPIR-V variables, and gives ESIMD functions their
vector-compute attributes; a module calling another
__esimd_* builtin is refused, naming it. invoke_simd calls of a
target known at compile time are lowered. Not part of this
implementation: the other ESIMD builtins, invoke_simd calls of
targets known only at run time and the joint matrix builtin
transformation. The input
is textual LLVM IR or bitcode (LLVM 14 to 22). Module files are
textual IR (.ll) with -S and bitcode (.bc) without it, as the
tools that read them next need: llvm-spirv reads only bitcode.
sycbuild writes the bitcode itself, for the LLVM that wrote the
input (its producer; for text, LLVM 15 unless the text needs a
newer one), with no LLVM tool and no verifier; a module holding a
construct it cannot write is an error naming its line, and -S
writes it as text.`

// flags holds the parsed option values until they are copied into
// postlink.Options.
type flags struct {
	set *clopt.Set

	outputs                                                  *[]clopt.Arg
	outDir, deviceLibDir, split, specConst                   *string
	force, irOnly, assembly, splitESIMD, lowerESIMD          *bool
	o0, o1, o2, o3, os, oz, noESIMDOpt, stateless            *bool
	symbols, properties, paramInfo, progMeta, kernelNames    *bool
	embedAux                                                 *bool
	exported, imported, onlyKernels, devGlobals, defaultSpec *bool
	allowDeps                                                *bool
}

func newFlags(argv0 string) *flags {
	s := clopt.New(argv0, overview, "[options] <input bitcode file>")
	s.Category = "sycl-post-link options"
	s.MaxPositional = 1
	f := &flags{set: s}
	f.outputs = s.List("o", "filename", "Output filename; may repeat, also as <target>,<filename>: that table then lists only the modules compatible with the target")
	f.outDir = s.String("out-dir", "dirname", "", "Directory where files listed in the result file table will be output")
	f.deviceLibDir = s.String("device-lib-dir", "dirname", "", "Directory where sycl fallback device libraries reside")
	f.force = s.Bool("f", "Enable binary output on terminals")
	f.irOnly = s.Bool("ir-output-only", "Output single IR file")
	f.assembly = s.Bool("S", "Write output as LLVM assembly (module files end in .ll); without it, modules are LLVM bitcode (.bc) that sycbuild writes itself, with no LLVM tool, for the input's LLVM generation")
	s.Lookup("S").Hidden = true
	f.splitESIMD = s.Bool("split-esimd", "Split SYCL and ESIMD entry points")
	f.lowerESIMD = s.Bool("lower-esimd", "Lower ESIMD constructs")
	f.stateless = s.Bool("lower-esimd-force-stateless-mem", "Use stateless API for accessor based API (the default; =false takes buffer accessors as surfaces)")
	s.Lookup("lower-esimd-force-stateless-mem").Hidden = true
	f.o0 = s.Bool("O0", "Optimization level 0. Similar to clang -O0")
	f.o1 = s.Bool("O1", "Optimization level 1. Similar to clang -O1")
	f.o2 = s.Bool("O2", "Optimization level 2. Similar to clang -O2")
	f.os = s.Bool("Os", "Like -O2 with extra optimizations for size. Similar to clang -Os")
	f.oz = s.Bool("Oz", "Like -Os but reduces code size further. Similar to clang -Oz")
	f.o3 = s.Bool("O3", "Optimization level 3. Similar to clang -O3")
	f.noESIMDOpt = s.Bool("force-disable-esimd-opt", "Force no optimizations.")
	s.Lookup("force-disable-esimd-opt").Hidden = true
	f.split = s.Enum("split", "", "split input module", []clopt.EnumValue{
		{Name: "source", Help: "1 output module per source (translation unit)"},
		{Name: "kernel", Help: "1 output module per kernel"},
		{Name: "auto", Help: "Choose split mode automatically"},
	}, "none")
	f.symbols = s.Bool("symbols", "generate exported symbol files")
	f.properties = s.Bool("properties", "generate module properties files")
	f.specConst = s.Enum("spec-const", "", "lower and generate specialization constants information", []clopt.EnumValue{
		{Name: "native", Help: "lower spec constants to native spirv instructions so that these values could be set at runtime"},
		{Name: "emulation", Help: "remove specialization constants and replace it with emulation"},
	}, "rt", "default")
	f.paramInfo = s.Bool("emit-param-info", "emit kernel parameter optimization info")
	f.progMeta = s.Bool("emit-program-metadata", "emit SYCL program metadata")
	f.kernelNames = s.Bool("emit-kernel-names", "emit kernel names")
	f.embedAux = s.Bool("embed-aux-info-as-metadata", "Embed the property sets and symbol table in each module as metadata instead of writing .prop and .sym files")
	f.exported = s.Bool("emit-exported-symbols", "emit exported symbols")
	f.imported = s.Bool("emit-imported-symbols", "emit imported symbols")
	f.onlyKernels = s.Bool("emit-only-kernels-as-entry-points", "Consider only sycl_kernel functions as entry points for device code split")
	f.devGlobals = s.Bool("device-globals", "Lower and generate information about device global variables")
	f.defaultSpec = s.Bool("generate-device-image-default-spec-consts", "Generate new device image(s) which is a copy of output images but contain specialization constants replaced with default values from specialization id(s).")
	f.allowDeps = s.Bool("allow-device-image-dependencies", "Allow dependencies between device images")
	s.Alias("support-dynamic-linking", "allow-device-image-dependencies")
	return f
}

// options converts the parsed flags.
func (f *flags) options() postlink.Options {
	o := postlink.Options{
		Input:                 "-",
		OutDir:                *f.outDir,
		DeviceLibDir:          *f.deviceLibDir,
		Force:                 *f.force,
		IROutputOnly:          *f.irOnly,
		Assembly:              *f.assembly,
		SplitGiven:            f.set.Given("split"),
		SplitESIMD:            *f.splitESIMD,
		LowerESIMD:            *f.lowerESIMD,
		ESIMDStateful:         f.set.Given("lower-esimd-force-stateless-mem") && !*f.stateless,
		OptLevel:              optLevel(f),
		Symbols:               *f.symbols,
		Properties:            *f.properties,
		EmitParamInfo:         *f.paramInfo,
		EmitProgramMetadata:   *f.progMeta,
		EmitKernelNames:       *f.kernelNames,
		EmbedAuxInfo:          *f.embedAux,
		EmitExportedSymbols:   *f.exported,
		EmitImportedSymbols:   *f.imported,
		EmitOnlyKernelsAsEPs:  *f.onlyKernels,
		DeviceGlobals:         *f.devGlobals,
		DefaultSpecConstImage: *f.defaultSpec,
		AllowDeps:             *f.allowDeps,
	}
	if p := f.set.PositionalValues(); len(p) > 0 {
		o.Input = p[0]
	}
	for _, a := range *f.outputs {
		o.Outputs = append(o.Outputs, postlink.ParseOutput(a.Value))
	}
	if o.SplitGiven {
		o.Split, _ = postlink.ParseSplitMode(*f.split)
	}
	if f.set.Given("spec-const") {
		o.SpecConst, _ = postlink.ParseSpecConstMode(*f.specConst)
	}
	return o
}

// optLevel is the ESIMD pipeline's level: the highest one given, 2 when none.
func optLevel(f *flags) int {
	switch {
	case *f.o3:
		return 3
	case *f.o2 || *f.os || *f.oz:
		return 2
	case *f.o1:
		return 1
	case *f.o0:
		return 0
	}
	return 2
}

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild sycl-post-link ...).
const Name = "sycl-post-link"

// Main runs sycl-post-link with its DPC++ command line: the adapter from
// that command line to postlink.Options and Run. Only the command maps its
// input (internal/mapfile), since it exits when done; the build runs Run
// itself.
//
// The command sets the collector with SetCollector.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	o, err := Parse(argv0, args, stdio.Out)
	if err != nil {
		return clopt.Report(stdio.Err, err)
	}
	SetCollector()
	return runWith(argv0, "", o, nil, stdio, mapfile.Read)
}

// SetCollector sets the collector of a process that runs the command,
// unless GOGC or GOMEMLIMIT says otherwise (internal/heapfloor):
//
//   - No collection until the heap reaches heapFloor. Parsing and writing
//     a module allocates about 17 bytes per byte of its text (227 MB for
//     the 13.3 MB of 1,000 kernels), most of it live until the module is
//     written; a collector started at the runtime's 4 MiB ran a dozen
//     cycles as the heap grew, each marking all of it again, and made
//     writing such a module a third slower.
//   - Past that, the heap may grow to three times what is live between
//     collections (gcPercent) rather than twice: the entities a split
//     parses are live to its end, so each collection marks them all again
//     for the little the writers free; this halves the collections for
//     about a fifth more peak memory.
//
// There is no soft memory limit. The mapped text is not on the heap, so
// the collector's own pacing keeps the heap near a small multiple of the
// parsed entities, and a limit near the live heap of dense IR (many small
// functions: the entities outweigh the text) made the collector run two
// to three times as often as the module grew.
func SetCollector() { heapfloor.Set(heapFloor, gcPercent) }

const (
	heapFloor = 128 << 20 // the heap no collection waits for (see SetCollector)
	gcPercent = 200       // the GOGC past it
)

// Parse parses a sycl-post-link command line (without the program name)
// into options; argv0 names the tool in errors. On --help or --version it
// prints to out and returns clopt.ErrHelp.
func Parse(argv0 string, args []string, out io.Writer) (postlink.Options, error) {
	f := newFlags(argv0)
	if err := f.set.Parse(args, out); err != nil {
		return postlink.Options{}, err
	}
	return f.options(), nil
}

// Run runs sycl-post-link with options o, whose relative paths are
// relative to dir ("" is the working directory), and returns the exit
// status; errors are printed to stdio.Err as the DPC++ tool prints them,
// argv0 naming the tool.
func Run(argv0, dir string, o postlink.Options, tokens postlink.Tokens, stdio clopt.Stdio) int {
	return runWith(argv0, dir, o, tokens, stdio, nil)
}

// runWith is Run; read, if set, reads the input file
// (postlink.IO.ReadFile).
func runWith(argv0, dir string, o postlink.Options, tokens postlink.Tokens, stdio clopt.Stdio, read func(string) ([]byte, error)) int {
	rio := postlink.IO{Stdin: stdio.In, Stdout: stdio.Out, Stderr: stdio.Err, Argv0: argv0, Dir: dir, Tokens: tokens, ReadFile: read}
	if !o.Assembly {
		rio.Assemble = Assembler(dir, o.Input)
	}
	if err := postlink.Run(&o, rio); err != nil {
		return clopt.Report(stdio.Err, err)
	}
	return 0
}
