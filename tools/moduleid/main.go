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
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/tools/clopt"
)

// Attr is the attribute the tool adds.
const Attr = "sycl-module-id"

const overview = `Gives the kernels and external functions of one translation unit's device
IR the "sycl-module-id" attribute (its source_filename), as DPC++'s front end
does, so that sycl-post-link -split=source groups them by translation unit
after linking. An input that already has the attribute is written unchanged.`

// kernelCC are the calling conventions of kernels.
var kernelCC = map[string]bool{"spir_kernel": true, "ptx_kernel": true, "amdgpu_kernel": true}

// Main runs sycl-module-id.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	s := clopt.New(argv0, overview, "-o <output.ll> <input>")
	output := s.String("o", "filename", "", "Output filename (textual IR)")
	if err := s.Parse(args, stdio.Out); err != nil {
		return clopt.Report(stdio.Err, err)
	}
	in := s.PositionalValues()
	if !s.Given("o") || len(in) != 1 {
		fmt.Fprintf(stdio.Err, "%s: need -o and exactly one input\n", argv0)
		return 1
	}
	if err := AnnotateFile(in[0], *output); err != nil {
		fmt.Fprintf(stdio.Err, "%s: %v\n", argv0, err)
		return 1
	}
	return 0
}

// AnnotateFile annotates the module in the file in and writes it to out
// (through a temporary file renamed into place).
func AnnotateFile(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	m, err := llvmir.Load(in, data)
	if err != nil {
		return err
	}
	return atomicfile.Write(out, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := Annotate(m, in).Write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
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
