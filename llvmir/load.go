package llvmir

import "github.com/sycbuild/sycbuild/bitcode"

// Load parses a module from textual IR or from LLVM bitcode, told apart by
// content. Bitcode is read as the text LLVM would print for it (package
// bitcode), so the Module is the same either way; a bitcode error is a
// *bitcode.Error, a text error an ErrorList.
func Load(file string, data []byte) (*Module, error) {
	if bitcode.Is(data) {
		text, err := bitcode.Disassemble(file, data)
		if err != nil {
			return nil, err
		}
		data = text
	}
	return Parse(file, data)
}
