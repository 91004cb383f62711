package offloadwrapper

import (
	"fmt"
	"io"
	"strconv"

	"github.com/sycbuild/sycbuild/internal/clopt"
)

// Options are what one clang-offload-wrapper run is told: the global
// options and the input groups, each with the annotations in force where
// it starts.
type Options struct {
	// Output is -o ("-" is standard output); OutputFormat is
	// --output-format: "bitcode", "elf", or "" for the form the output's
	// name implies.
	Output       string
	OutputFormat string
	// Host is -host ("" is the default host, with a warning under -v).
	Host string
	// Batch is -batch: every input is a file table of images.
	Batch bool
	// NoRegFuncs is -emit-reg-funcs=false.
	NoRegFuncs bool
	DescName   string // -desc-name
	Verbose    bool   // -v
	// Compress is --offload-compress, with its level and threshold
	// (defaults 10 and 512).
	Compress             bool
	CompressionLevel     int
	CompressionThreshold int64
	OffloadBinary        bool // --offload-binary
	SPIRVFallback        bool // --spirv-fallback
	NativeCPU            bool // -native-cpu (refused by Run)
	// Inputs are the input groups in command-line order.
	Inputs []Input
}

// Annotation is the value of every annotation option at one point of the
// command line (the options are sticky: each applies to every later input
// until given again).
type Annotation struct {
	Kind, Target, Format, CompileOpts, LinkOpts, Entries, Properties string
}

// initial is the annotation before any annotation option.
var initial = Annotation{Format: "none"}

// Input is one input group: the inputs between two annotation options.
// Without -batch it is an image file and optionally its manifest; with
// -batch every file is a file table.
type Input struct {
	Annotation
	Files []string
}

// Parse parses a clang-offload-wrapper command line (without the program
// name); argv0 names the tool in errors. On --help it prints to out and
// returns clopt.ErrHelp.
func Parse(argv0 string, args []string, out io.Writer) (Options, error) {
	f := newFlags(argv0)
	if err := f.set.Parse(args, out); err != nil {
		return Options{}, err
	}
	if !f.set.Given("o") {
		return Options{}, &clopt.Error{Msg: argv0 + ": for the -o option: must be specified at least once!"}
	}
	if len(f.set.Positional()) == 0 {
		return Options{}, &clopt.Error{Msg: fmt.Sprintf("%s: Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: %s --help", argv0, argv0)}
	}
	o := Options{
		Output:        *f.output,
		OutputFormat:  *f.outForm,
		Host:          *f.host,
		Batch:         *f.batch,
		NoRegFuncs:    !*f.emitRegFuncs,
		DescName:      *f.descName,
		Verbose:       *f.verbose,
		Compress:      *f.compress,
		OffloadBinary: *f.offloadBinary,
		SPIRVFallback: *f.spirvFallback,
		NativeCPU:     *f.nativeCPU,
	}
	var err error
	if o.CompressionLevel, err = strconv.Atoi(*f.level); err != nil {
		return Options{}, &clopt.Error{Msg: fmt.Sprintf("%s: for the --offload-compression-level option: '%s' value invalid for integer argument!", argv0, *f.level)}
	}
	if o.CompressionThreshold, err = strconv.ParseInt(*f.threshold, 10, 64); err != nil {
		return Options{}, &clopt.Error{Msg: fmt.Sprintf("%s: for the --offload-compression-threshold option: '%s' value invalid for integer argument!", argv0, *f.threshold)}
	}
	cur := initial
	grouping := false // the last item was an input
	for _, occ := range f.set.Occurrences() {
		switch {
		case occ.Name == "":
			if !grouping {
				o.Inputs = append(o.Inputs, Input{Annotation: cur})
				grouping = true
			}
			in := &o.Inputs[len(o.Inputs)-1]
			in.Files = append(in.Files, occ.Value)
		case annotations[occ.Name]:
			cur.set(occ.Name, occ.Value)
			grouping = false
		}
	}
	return o, nil
}

// Args renders o as the command line (without the program name) that
// Parse reads back as o: -o, --output-format, -host, -batch, the first
// group's -kind (where the DPC++ driver writes it), the other global
// options, then each group's inputs after its annotations: for the first
// group every one that is set, for the others those that changed since the
// group before (-format again when none did: an annotation option is what
// ends a group).
func Args(o Options) []string {
	a := []string{"-o", o.Output}
	if o.OutputFormat != "" {
		a = append(a, "--output-format="+o.OutputFormat)
	}
	if o.Host != "" {
		a = append(a, "-host="+o.Host)
	}
	if o.Batch {
		a = append(a, "-batch")
	}
	// The first group renders every annotation it has, -format=none too.
	var prev Annotation
	if len(o.Inputs) > 0 && o.Inputs[0].Kind != prev.Kind {
		prev.Kind = o.Inputs[0].Kind
		a = append(a, "-kind="+prev.Kind)
	}
	flag := func(on bool, name string) {
		if on {
			a = append(a, name)
		}
	}
	flag(o.OffloadBinary, "--offload-binary")
	flag(o.NoRegFuncs, "-emit-reg-funcs=false")
	if o.DescName != "" {
		a = append(a, "-desc-name="+o.DescName)
	}
	flag(o.Verbose, "-v")
	flag(o.Compress, "--offload-compress")
	if o.CompressionLevel != defaultCompressionLevel {
		a = append(a, "--offload-compression-level="+strconv.Itoa(o.CompressionLevel))
	}
	if o.CompressionThreshold != defaultCompressionThreshold {
		a = append(a, "--offload-compression-threshold="+strconv.FormatInt(o.CompressionThreshold, 10))
	}
	flag(o.SPIRVFallback, "--spirv-fallback")
	flag(o.NativeCPU, "-native-cpu")
	for i, in := range o.Inputs {
		n := len(a)
		for _, c := range []struct{ name, was, is string }{
			{"kind", prev.Kind, in.Kind}, {"target", prev.Target, in.Target}, {"format", prev.Format, in.Format},
			{"compile-opts", prev.CompileOpts, in.CompileOpts}, {"link-opts", prev.LinkOpts, in.LinkOpts},
			{"entries", prev.Entries, in.Entries}, {"properties", prev.Properties, in.Properties},
		} {
			if c.is != c.was {
				a = append(a, "-"+c.name+"="+c.is)
			}
		}
		if len(a) == n && i > 0 {
			a = append(a, "-format="+in.Format)
		}
		prev = in.Annotation
		a = append(a, in.Files...)
	}
	return a
}

// Defaults are the options of a command line that gives none: compression
// level and threshold at their defaults, registration functions emitted.
func Defaults() Options {
	return Options{CompressionLevel: defaultCompressionLevel, CompressionThreshold: defaultCompressionThreshold}
}
