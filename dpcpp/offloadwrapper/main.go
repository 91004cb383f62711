// Package offloadwrapper is the command line of sycbuild's
// clang-offload-wrapper: the DPC++ tool's options, input grouping and error
// texts over package wrapper. Like the DPC++ tool it writes LLVM bitcode;
// given an output file named *.o or *.obj, or --output-format=elf, it writes
// the ELF object that compiling that bitcode gives instead, without LLVM.
//
// Only -kind=sycl images can be wrapped; other kinds and -native-cpu are
// refused with a message saying so. The OpenMP-only -add-omp-offload-notes
// and -save-temps are accepted and, as for SYCL images in the DPC++ tool,
// change nothing.
package offloadwrapper

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/wrapper"
)

// overview is the DPC++ tool's text (its test checks every line of it), with
// one closing line on what sycbuild writes instead.
const overview = `A tool to create a wrapper bitcode for offload target binaries.
Takes offload target binaries and optional manifest files as input
and produces bitcode file containing target binaries packaged as data
and initialization code which registers target binaries in the offload
runtime. Manifest files format and contents are not restricted and are
a subject of agreement between the device compiler and the native
runtime for that device. When present, manifest file name should
immediately follow the corresponding device image filename on the
command line. Options annotating a device binary have effect on all
subsequent input, until redefined.
For example:
  clang-offload-wrapper                   \
      -host x86_64-pc-linux-gnu           \
      -kind=sycl                          \
        -target=spir64                    \
          -format=spirv                   \
          -compile-opts=-g                \
          -link-opts=-cl-denorms-are-zero \
          -entries=sym.txt                \
          -properties=props.txt           \
          a.spv                           \
          a_mf.txt                        \
        -target=xxx                       \
          -format=native                  \
          -compile-opts=""                \
          -link-opts=""                   \
          -entries=""                     \
          -properties=""                  \
          b.bin                           \
          b_mf.txt                        \
      -kind=openmp                        \
          c.bin\n
This command generates an x86 wrapper object (.bc) enclosing the
following tuples describing a single device binary each:
|offload|target|data  |data |manifest|compile|entries|properties|...|
|  kind |      |format|     |        |options|       |          |...|
|-------|------|------|-----|--------|-------|-------|----------|---|
|sycl   |spir64|spirv |a.spv|a_mf.txt|  -g   |sym.txt|props.txt |...|
|sycl   |xxx   |native|b.bin|b_mf.txt|       |       |          |...|
|openmp |xxx   |native|c.bin|        |       |       |          |...|
|...|    link            |
|...|    options         |
|---|--------------------|
|...|-cl-denorms-are-zero|
|...|                    |
|...|                    |
sycbuild wraps -kind=sycl images only (x86-64 or aarch64 host). It writes
bitcode, or, with --output-format=elf or an -o file whose name ends in .o
or .obj, the ELF relocatable object that compiling the bitcode gives.`

// Defaults of the compression options (those of the DPC++ tool).
const (
	defaultCompressionLevel     = 10
	defaultCompressionThreshold = 512
)

// helpLine is one option's --help entry (by option name); continuation
// lines of help are indented to the description column when the options
// are defined.
type helpLine struct{ valueDesc, help string }

var optionHelp = map[string]helpLine{
	"batch": {"", `All input files are treated as a table file.  One table file per target.
Table files consist of a table of filenames that provide
Code, Symbols, Properties, etc.
Example input table file in batch mode:
  [Code|Symbols|Properties|Manifest]
  a_0.bc|a_0.sym|a_0.props|a_0.mnf
  a_1.bin|||
Example usage:
  clang-offload-wrapper -batch -host=x86_64-unknown-linux-gnu
    -kind=openmp -target=spir64_gen table1.txt
    -kind=openmp -target=spir64     table2.txt`},
	"compile-opts": {"string", "compile options passed to the offload runtime"},
	"desc-name": {"name", `Specifies offload descriptor symbol name: '.<offload kind>.<name>',
and makes it globally visible`},
	"emit-reg-funcs": {"", "Emit [un-]registration functions"},
	"entries":        {"filename", "File listing all offload function entries, SYCL offload only"},
	"format":         {"value", "device binary image formats:"},
	"host": {"triple", `Target triple for the output module. If omitted, the host
triple is used.`},
	"kind":      {"value", "offload kind:"},
	"link-opts": {"string", "link options passed to the offload runtime"},
	"o":         {"filename", "Output filename"},
	"output-format": {"value", `Form of the output (a sycbuild option); the default is bitcode, or elf
when -o names a file ending in .o or .obj:`},
	"offload-binary": {"", `Write upstream LLVM's form (a sycbuild option): each image in an LLVM
OffloadBinary in .llvm.offloading, registered as LLVM 22's
clang-linker-wrapper registers SYCL images; always an ELF object`},
	"offload-compress":              {"", "Compress device images with zstd (--offload-compression-threshold, --offload-compression-level)"},
	"offload-compression-level":     {"int", "zstd compression level of --offload-compress (default 10)"},
	"offload-compression-threshold": {"int", "With --offload-compress, compress only images of at least this many bytes (default 512)"},
	"properties":                    {"filename", "File listing device binary image properties, SYCL offload only"},
	"spirv-fallback": {"", `Wrap an image of a -format=native target that is SPIR-V (it starts with
SPIR-V's magic number) as -format=spirv: a module whose ahead-of-time
compile failed and fell back (a sycbuild option)`},
	"target": {"string", "offload target triple"},
	"v":      {"", "verbose output"},
}

var kindValues = []clopt.EnumValue{
	{Name: "unknown", Help: "unknown"}, {Name: "host", Help: "host"}, {Name: "openmp", Help: "OpenMP"},
	{Name: "hip", Help: "HIP"}, {Name: "sycl", Help: "SYCL"},
}

var outputFormatValues = []clopt.EnumValue{
	{Name: "bitcode", Help: "LLVM bitcode, as clang-offload-wrapper writes it"},
	{Name: "elf", Help: "the ELF relocatable object that compiling the bitcode gives"},
}

var formatValues = []clopt.EnumValue{
	{Name: "none", Help: "not set"}, {Name: "native", Help: "unknown or native"},
	{Name: "spirv", Help: "SPIRV binary"}, {Name: "llvmbc", Help: "LLVMIR bitcode"},
}

// help returns an option's help text (clopt indents its continuation lines).
func help(name string) string { return optionHelp[name].help }

// flags are the parsed options.
type flags struct {
	set                                               *clopt.Set
	output, host, descName, level, threshold, outForm *string
	batch, emitRegFuncs, verbose, compress, nativeCPU *bool
	offloadBinary, spirvFallback                      *bool
}

func newFlags(argv0 string) *flags {
	s := clopt.New(argv0, overview, "[options] <input files>")
	f := &flags{set: s}
	f.output = s.String("o", "filename", "", help("o"))
	f.outForm = s.String("output-format", "value", "", help("output-format"))
	s.Lookup("output-format").Enum = outputFormatValues
	for _, name := range []string{"kind", "target", "format", "compile-opts", "link-opts", "entries", "properties"} {
		s.List(name, optionHelp[name].valueDesc, help(name))
	}
	s.Lookup("kind").Enum = kindValues
	s.Lookup("format").Enum = formatValues
	f.host = s.String("host", "triple", "", help("host"))
	f.emitRegFuncs = s.BoolDefault("emit-reg-funcs", true, help("emit-reg-funcs"))
	f.descName = s.String("desc-name", "name", "", help("desc-name"))
	f.batch = s.Bool("batch", help("batch"))
	f.verbose = s.Bool("v", help("v"))
	f.compress = s.Bool("offload-compress", help("offload-compress"))
	f.offloadBinary = s.Bool("offload-binary", help("offload-binary"))
	f.spirvFallback = s.Bool("spirv-fallback", help("spirv-fallback"))
	f.level = s.String("offload-compression-level", "int", strconv.Itoa(defaultCompressionLevel), help("offload-compression-level"))
	f.threshold = s.String("offload-compression-threshold", "int", strconv.Itoa(defaultCompressionThreshold), help("offload-compression-threshold"))
	f.nativeCPU = s.Bool("native-cpu", "SYCL Native CPU images (not supported by sycbuild)")
	// OpenMP-only options: accepted, without effect on SYCL images (as in
	// the DPC++ tool).
	s.Bool("add-omp-offload-notes", "Add LLVMOMPOFFLOAD ELF notes to OpenMP images")
	s.Bool("save-temps", "Keep the temporary files of -add-omp-offload-notes")
	for _, name := range []string{"native-cpu", "add-omp-offload-notes", "save-temps"} {
		s.Lookup(name).Hidden = true
	}
	return f
}

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild clang-offload-wrapper ...).
const Name = "clang-offload-wrapper"

// Main runs clang-offload-wrapper with its DPC++ command line: the adapter
// from that command line to Options and Run.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	o, err := Parse(argv0, args, stdio.Out)
	if err != nil {
		return clopt.Report(stdio.Err, err)
	}
	return Run(argv0, "", o, stdio)
}

// Run wraps the images o names and writes the object, its relative paths
// (and those the tables name) relative to dir ("" is the working
// directory), and returns the exit status, printing errors to stdio.Err as
// the DPC++ tool does, argv0 naming the tool.
func Run(argv0, dir string, o Options, stdio clopt.Stdio) int {
	err := wrap(argv0, dir, o, stdio)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stdio.Err, ue.msg)
		} else {
			fmt.Fprintf(stdio.Err, "%s: error: %v\n", argv0, err)
		}
		return 1
	}
	return 0
}

// usageError is a command-line error already worded as LLVM words it.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// wrap collects the images and writes the object.
func wrap(argv0, dir string, o Options, stdio clopt.Stdio) error {
	opt := wrapper.Options{
		Host:                 o.Host,
		NoRegFuncs:           o.NoRegFuncs,
		DescName:             o.DescName,
		Compress:             o.Compress,
		CompressionLevel:     o.CompressionLevel,
		CompressionThreshold: o.CompressionThreshold,
		Output:               outputForm(o.OutputFormat, o.Output),
		Dir:                  dir,
	}
	if o.NativeCPU {
		return fmt.Errorf("-native-cpu is not supported: sycbuild wraps SYCL device images only")
	}
	if opt.Host == "" {
		opt.Host = wrapper.DefaultHost()
		if o.Verbose {
			fmt.Fprintf(stdio.Err, "warning: -host option is omitted, using host triple '%s'\n", opt.Host)
		}
	}
	if o.OffloadBinary {
		if o.OutputFormat == "bitcode" {
			return &usageError{fmt.Sprintf("%s: --offload-binary writes an ELF object, not --output-format=bitcode", argv0)}
		}
		opt.OffloadBinary, opt.Output = true, wrapper.ELFObject
	}
	if o.Verbose {
		opt.Verbose = stdio.Err
	}
	images, err := collectImages(dir, o.Inputs, o.Batch)
	if err != nil {
		return err
	}
	if o.SPIRVFallback {
		if images, err = markFallbacks(dir, images); err != nil {
			return err
		}
	}
	if o.Output == "-" {
		return wrapper.Write(stdio.Out, images, opt)
	}
	return wrapper.WriteFile(o.Output, images, opt)
}

// outputForm returns the form of the output: the one named by
// --output-format, else an ELF object for an output file named *.o or
// *.obj, else bitcode (what the DPC++ tool writes, for llc).
func outputForm(format, output string) wrapper.Output {
	switch {
	case format == "elf":
		return wrapper.ELFObject
	case format == "bitcode":
		return wrapper.Bitcode
	case strings.HasSuffix(output, ".o") || strings.HasSuffix(output, ".obj"):
		return wrapper.ELFObject
	}
	return wrapper.Bitcode
}

// markFallbacks gives the native images that are SPIR-V the SPIR-V format,
// and expands a native image that is a table of its kernels' images (a
// module sycbuild's build fell back by kernel: [Code|Symbols], the kernels
// that failed alone as SPIR-V) into one image per row, each with its own
// entries and the module's properties. Image files are relative to dir.
func markFallbacks(dir string, images []wrapper.Image) ([]wrapper.Image, error) {
	out := make([]wrapper.Image, 0, len(images))
	for _, img := range images {
		if img.Format != wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE {
			out = append(out, img)
			continue
		}
		magic, err := readMagic(dir, img.File)
		if err != nil {
			return nil, err
		}
		if string(magic[:]) != "[Cod" {
			if binary.LittleEndian.Uint32(magic[:]) == spirvMagic {
				img.Format = wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV
			}
			out = append(out, img)
			continue
		}
		t, err := filetable.ReadFileIn(dir, img.File)
		if err != nil {
			return nil, err
		}
		code, syms := t.ColumnIndex("Code"), t.ColumnIndex("Symbols")
		if code < 0 || syms < 0 {
			return nil, fmt.Errorf("%s: a table of kernel images needs Code and Symbols columns (it has %s)", img.File, strings.Join(t.Columns, ", "))
		}
		for _, row := range t.Rows {
			part := img
			part.File = row[code]
			if part.Entries, err = readEntries(dir, row[syms]); err != nil {
				return nil, fmt.Errorf("%s: %w", img.File, err)
			}
			m, err := readMagic(dir, part.File)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", img.File, err)
			}
			if binary.LittleEndian.Uint32(m[:]) == spirvMagic {
				part.Format = wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV
			}
			out = append(out, part)
		}
	}
	return out, nil
}

// readMagic returns the first four bytes of a file relative to dir
// (zeros for a shorter file).
func readMagic(dir, name string) (magic [4]byte, err error) {
	f, err := open(dir, name)
	if err != nil {
		return magic, err
	}
	defer f.Close()
	_, err = io.ReadFull(f, magic[:])
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return magic, err
}

// spirvMagic is the first word of a SPIR-V module (in the module's byte
// order; SPIR-V written on little-endian machines is little-endian).
const spirvMagic = 0x07230203
