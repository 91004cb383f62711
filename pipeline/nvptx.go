package pipeline

import (
	"fmt"

	"github.com/sycbuild/sycbuild/toolchain"
)

// nvptxLLVM is the LLVM generation of the llc an nvptx64 target runs: the
// inputs' own when they need LLVM 22 (clang-22's IR, which llc-19 cannot
// parse), as spir64 follows the inputs to llc-22's SPIR-V backend, and
// LLVM 19 otherwise (LLVM 15 and 19 IR), the generation the NVPTX route was
// verified with.
func nvptxLLVM(in *inputSet) int {
	if in.llvm > 19 {
		return in.llvm
	}
	return 19
}

// nvptxReads returns the problem (completing "target <name> …") when the
// llc found for an nvptx64 target, configured under tools: or discovered,
// is of an LLVM older than the inputs need, naming both; "" when it reads
// them, or when its version does not say.
func nvptxReads(llc *toolchain.Tool, in *inputSet) string {
	if llc == nil {
		return ""
	}
	v := llc.LLVM()
	if v == 0 || v >= in.llvm {
		return ""
	}
	return fmt.Sprintf("cannot use the inputs: llc is %s (LLVM %d), which reads IR up to LLVM %d, and %s (llc-%d reads it)", llc.Path, v, v, in.why, in.llvm)
}
