package split

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/llvmir"
)

// FuzzSplit splits whatever parses, per kernel, per source and whole, with
// and without the ESIMD split: no module may make the splitter or the
// writer panic (a module the writer refuses is an error, not a crash).
//
//	go test ./split -run '^$' -fuzz FuzzSplit -parallel 1 -fuzztime 10m
func FuzzSplit(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.ll"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := llvmir.Parse("f.ll", src)
		if err != nil {
			return
		}
		for _, cfg := range []Config{
			{Scope: ScopePerKernel},
			{Scope: ScopePerModule, AllowDeps: true},
			{Scope: ScopeGlobal, OnlyKernels: true},
			{Scope: ScopeGlobal, NoSplit: true},
		} {
			s := New(m, cfg)
			s.CheckDeviceGlobals()
			s.ESIMDCode()
			for i := range s.Groups() {
				parts, _ := s.SplitESIMD(s.Part(i), cfg.Scope == ScopePerKernel)
				for _, p := range parts {
					p.SymbolTable()
					p.Plan().Write(io.Discard)
					p.Release()
				}
			}
		}
	})
}
