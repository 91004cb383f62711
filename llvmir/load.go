package llvmir

import (
	"runtime"

	"github.com/sycbuild/sycbuild/bitcode"
)

// Load parses a module from textual IR or from LLVM bitcode, told apart by
// content. Bitcode is read as the text LLVM would print for it (package
// bitcode), so the Module is the same either way; a bitcode error is a
// *bitcode.Error, a text error an ErrorList.
func Load(file string, data []byte) (*Module, error) {
	return LoadWith(file, data, runtime.GOMAXPROCS(0))
}

// LoadWith is Load with the parse's workers bounded as ParseWith bounds
// them.
func LoadWith(file string, data []byte, workers int) (*Module, error) {
	if bitcode.Is(data) {
		text, err := bitcode.Disassemble(file, data)
		if err != nil {
			return nil, err
		}
		data = text
	}
	return ParseWith(file, data, workers)
}
