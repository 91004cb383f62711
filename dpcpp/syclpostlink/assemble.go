package syclpostlink

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/toolchain"
)

// Without -S the reference writes its modules as bitcode, and the tools the
// DPC++ driver runs next need that: llvm-spirv reads nothing else. sycbuild
// writes each module's text as bitcode itself (llvmir's bitcode writer),
// for the LLVM generation that wrote the input: no process, no verifier, no
// LLVM installation. A module holding a construct the writer does not know
// is an error naming it at its line in the module's text (what -S writes),
// never bitcode of something else.

// Assembler returns the function that turns a module's text into the
// bitcode sycl-post-link without -S writes (postlink.IO.Assemble). The
// input's LLVM generation is read from it once, when the first module is
// written ("-", standard input, is not looked at: the text decides). The
// input's relative path is relative to dir ("" is the working directory).
func Assembler(dir, input string) func(text []byte) ([]byte, error) {
	gen := sync.OnceValue(func() int { return bitcodeLLVM(dir, input) })
	// The modules of a split share most of their functions (a per-kernel
	// split copies every helper into each kernel's module): a body is
	// parsed once for all of them.
	bodies := llvmir.NewBodyCache(0)
	return func(text []byte) ([]byte, error) {
		// llvm-as read the text from standard input, which names the
		// module when its text has no source_filename: the same name keeps
		// the bitcode what the reference's tools write.
		bc, err := llvmir.AssembleBitcode("<stdin>", text, llvmir.BitcodeOptions{LLVM: gen(), Bodies: bodies})
		if err != nil {
			return nil, unwritable(err)
		}
		return bc, nil
	}
}

// bitcodeLLVM is the LLVM generation the modules of input are written for:
// the producer's for bitcode, the one the text needs (15 for typed
// pointers, 19 or 22 for syntax only those read), and 15 for text every
// LLVM since 15 reads, since LLVM 15's bitcode is read by all of them
// (llvm-spirv-15 among them) and a newer one's is not. 0 (standard input,
// an input that cannot be read) lets the writer decide from the text.
func bitcodeLLVM(dir, input string) int {
	if input == "-" {
		return 0
	}
	info, err := toolchain.ScanIR(basedir.Resolve(dir, input))
	if err != nil {
		return 0
	}
	if info.LLVM == 0 {
		return 15
	}
	return info.LLVM
}

// unwritable is the error for a module the writer cannot write: the
// construct at its line:col in the module's text, and the way out.
func unwritable(err error) error {
	msg := firstLine(err.Error())
	var pe *llvmir.Error
	if errors.As(err, &pe) && pe.Line > 0 {
		msg = fmt.Sprintf("line %d:%d of the module's text (as -S writes it): %s", pe.Line, pe.Col, firstLine(pe.Msg))
	}
	return fmt.Errorf("%s; pass -S to write the modules as textual IR", msg)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
