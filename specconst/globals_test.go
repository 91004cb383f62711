package specconst

import (
	"bytes"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// TestLowerGivenGlobals lowers every per-kernel module of a split twice,
// once walking the whole input and once walking only the module's global
// values (Options.Globals, what sycl-post-link passes): the results and
// the written modules are the same.
func TestLowerGivenGlobals(t *testing.T) {
	small, err := irgen.String(irgen.Small())
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{"typed.ll": typedModule, "opaque.ll": header + opaqueBody, "irgen.ll": small}
	for name, src := range inputs {
		m, err := llvmir.Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sp := split.New(m, split.Config{Scope: split.ScopePerKernel})
		lowered := 0
		for i := range sp.Groups() {
			p := sp.Part(i)
			for _, mode := range []Mode{Native, Emulation, DefaultValues} {
				var texts [2]bytes.Buffer
				var results [2]*Result
				for k, globals := range [2][]*llvmir.Entity{nil, p.Globals()} {
					plan := p.Plan()
					res, err := Lower(m, plan, Options{Mode: mode, Kept: p.Written, Defines: p.Defines, Cloned: true, Globals: globals})
					if err != nil {
						t.Fatalf("%s, part %d, mode %v: %v", name, i, mode, err)
					}
					if err := plan.Write(&texts[k]); err != nil {
						t.Fatal(err)
					}
					results[k] = res
				}
				if !equalResults(results[0], results[1]) || texts[0].String() != texts[1].String() {
					t.Errorf("%s, part %d, mode %v: lowering over the part's globals differs:\n%s\nwant\n%s", name, i, mode, texts[1].String(), texts[0].String())
				}
				if results[0].Modified {
					lowered++
				}
			}
			p.Release()
		}
		if lowered == 0 {
			t.Errorf("%s: no module had spec constants to lower", name)
		}
	}
}
