// Package moduleid is sycbuild's sycl-module-id tool: it gives the device
// code of one translation unit the "sycl-module-id" attribute that DPC++'s
// front end writes and upstream clang's does not, so that per-source split
// can tell translation units apart after they are linked.
//
//	sycbuild sycl-module-id -o out.ll input.ll|input.bc
//
// Every kernel (spir_kernel, ptx_kernel, amdgpu_kernel) the input defines,
// and every other function it defines with external linkage (a
// SYCL_EXTERNAL function, to clang-22 a plain external definition), gets
// "sycl-module-id"="<the input's source_filename>" (the input's name as
// given when it has none). An input that already has the attribute on any
// function is written as it is. The output is textual IR; bitcode input is
// read natively.
package moduleid

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/llvmir"
)

// Attr is the attribute the tool adds.
const Attr = "sycl-module-id"

const overview = `Gives the kernels and external functions of one translation unit's device
IR the "sycl-module-id" attribute (its source_filename), as DPC++'s front end
does, so that sycl-post-link -split=source groups them by translation unit
after linking. An input that already has the attribute is written unchanged.`

// kernelCC are the calling conventions of kernels.
var kernelCC = map[string]bool{"spir_kernel": true, "ptx_kernel": true, "amdgpu_kernel": true}

// Options are what one run is told: the input (textual IR or bitcode) and
// the output file (textual IR).
type Options struct {
	Input, Output string
}

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild sycl-module-id ...).
const Name = "sycl-module-id"

// Main runs sycl-module-id with its command line: the adapter from that
// command line to Options and Run.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	o, err := Parse(argv0, args, stdio.Out)
	if err != nil {
		return clopt.Report(stdio.Err, err)
	}
	return Run(argv0, "", o, stdio)
}

// Parse parses a sycl-module-id command line (without the program name);
// argv0 names the tool in errors. On --help it prints to out and returns
// clopt.ErrHelp.
func Parse(argv0 string, args []string, out io.Writer) (Options, error) {
	s := clopt.New(argv0, overview, "-o <output.ll> <input>")
	output := s.String("o", "filename", "", "Output filename (textual IR)")
	if err := s.Parse(args, out); err != nil {
		return Options{}, err
	}
	in := s.PositionalValues()
	if !s.Given("o") || len(in) != 1 {
		return Options{}, &clopt.Error{Msg: argv0 + ": need -o and exactly one input"}
	}
	return Options{Input: in[0], Output: *output}, nil
}

// Args renders o as the command line (without the program name) that
// Parse reads back as o.
func Args(o Options) []string { return []string{"-o", o.Output, o.Input} }

// Run runs sycl-module-id with options o, whose paths are relative to dir
// ("" is the working directory), and returns the exit status, printing
// errors to stdio.Err after argv0.
func Run(argv0, dir string, o Options, stdio clopt.Stdio) int {
	if err := AnnotateFile(dir, o.Input, o.Output); err != nil {
		fmt.Fprintf(stdio.Err, "%s: %v\n", argv0, err)
		return 1
	}
	return 0
}

// AnnotateFile annotates the module in the file in and writes it to out
// (through a temporary file renamed into place). Relative paths are
// relative to dir ("" is the working directory); the module is named in
// and messages name the files as given.
func AnnotateFile(dir, in, out string) error {
	data, err := os.ReadFile(basedir.Resolve(dir, in))
	if err != nil {
		return fmt.Errorf("open %s: %w", in, underlying(err))
	}
	// One goroutine reads it: a build runs one of these per translation
	// unit at once, each on a job token of its own.
	m, err := llvmir.LoadWith(in, data, 1)
	if err != nil {
		return err
	}
	return atomicfile.Write(basedir.Resolve(dir, out), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := Annotate(m, in).Write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// underlying strips the *PathError wrapper, whose text repeats the path.
func underlying(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Annotate returns the plan writing m with the attribute added (m itself,
// unchanged, when any function already has it); name is used as the module
// id when m has no source_filename.
func Annotate(m *llvmir.Module, name string) *llvmir.Plan {
	p := m.NewPlan()
	fns := m.Functions()
	for _, e := range fns {
		if _, ok := m.Attr(e, Attr); ok {
			return p
		}
	}
	id := m.SourceFilename
	if id == "" {
		id = name
	}
	a := llvmir.Attr{Key: Attr, Value: id, HasValue: true, String: true}
	for _, e := range fns {
		f := e.Func
		if f.Declaration {
			continue
		}
		if kernelCC[f.CallingConv] || f.Linkage == llvmir.External {
			p.AddFnAttr(e, a)
		}
	}
	return p
}
