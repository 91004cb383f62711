package llvmir_test

import (
	"testing"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// FuzzBitcodeRewrite reads arbitrary bytes as bitcode and writes what was
// read as bitcode again, for the text's own LLVM generation and for LLVM
// 22: an error is fine, a panic or a hang is not; bitcode that is written
// is read back by the reader.
func FuzzBitcodeRewrite(f *testing.F) {
	testenv.AddBitcodeSeeds(f)
	f.Add([]byte("BC\xc0\xde"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := bitcode.Disassemble("f.bc", data)
		if err != nil {
			return
		}
		m, err := llvmir.Parse("f.ll", text)
		if err != nil {
			return
		}
		for _, v := range []int{0, 22} {
			bc, err := m.AssembleBitcode(llvmir.BitcodeOptions{LLVM: v})
			if err != nil {
				continue
			}
			bitcode.Disassemble("g.bc", bc)
		}
	})
}
