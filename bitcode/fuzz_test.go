package bitcode

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDisassemble feeds mutated bitcode to Disassemble and Info: an
// error is fine, a panic or a hang is not.
func FuzzDisassemble(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "seed", "*.bc"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
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
