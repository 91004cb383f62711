package bitcode

import (
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// FuzzDisassemble feeds mutated bitcode to Disassemble and Info: an
// error is fine, a panic or a hang is not.
func FuzzDisassemble(f *testing.F) {
	testenv.AddBitcodeSeeds(f)
	f.Add(make([]byte, 32))
	f.Add([]byte("BC\xc0\xde"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Disassemble("f.bc", data)
		if err == nil && len(out) == 0 {
			t.Fatal("no error and no output")
		}
		Info(data)
		Is(data)
	})
}
