package llvmir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/llvmir"
)

// FuzzBitcodeRewrite reads arbitrary bytes as bitcode and writes what was
// read as bitcode again, for the text's own LLVM generation and for LLVM
// 22: an error is fine, a panic or a hang is not; bitcode that is written
// is read back by the reader.
func FuzzBitcodeRewrite(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "bitcode", "testdata", "seed", "*.bc"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
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
