package props

import (
	"bytes"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// TestComputeCostsWhatTheImageHolds computes the property sets of every
// per-kernel image of modules of growing size. Given the image's global
// values, the computation looks at those only (counted, not timed), so the
// entities looked at per kernel stay the same however large the module;
// and its result is the one a walk over the whole module gives.
func TestComputeCostsWhatTheImageHolds(t *testing.T) {
	opts := Options{EmitParamInfo: true, EmitProgramMetadata: true, EmitExportedSymbols: true,
		EmitImportedSymbols: true, EmitKernelNames: true, DeviceGlobals: true}
	perKernel := map[int]float64{}
	for _, n := range []int{40, 160} {
		c := irgen.Quadratic(n)
		c.Body = 2
		src, err := irgen.String(c)
		if err != nil {
			t.Fatal(err)
		}
		m, err := llvmir.Parse("q.ll", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sp := split.New(m, split.Config{Scope: split.ScopePerKernel})
		visited := 0
		for i := range sp.Groups() {
			p := sp.Part(i)
			img := func(globals []*llvmir.Entity) *Image {
				return &Image{M: m, Kept: p.Written, Globals: globals, EntryPoints: p.Entries,
					Declaration: func(e *llvmir.Entity) bool { return !p.Defines(e) }, Cloned: true}
			}
			sparse, whole := img(p.Globals()), img(nil)
			var got, want bytes.Buffer
			for _, c := range []struct {
				img *Image
				b   *bytes.Buffer
			}{{sparse, &got}, {whole, &want}} {
				reg, err := Compute(c.img, opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := reg.Write(c.b); err != nil {
					t.Fatal(err)
				}
			}
			if got.String() != want.String() {
				t.Fatalf("%d kernels, image %d: property sets differ from the whole module's:\n%s\nwant\n%s", n, i, got.String(), want.String())
			}
			if sparse.visited != len(p.Globals()) {
				t.Errorf("%d kernels, image %d: %d entities looked at, want the image's %d global values", n, i, sparse.visited, len(p.Globals()))
			}
			if whole.visited != len(m.Entities) {
				t.Errorf("whole module: %d entities looked at, want %d", whole.visited, len(m.Entities))
			}
			visited += sparse.visited
			p.Release()
		}
		perKernel[n] = float64(visited) / float64(n)
	}
	if perKernel[160] > 1.25*perKernel[40] {
		t.Errorf("entities looked at per kernel grow with the module: %.1f at 40 kernels, %.1f at 160", perKernel[40], perKernel[160])
	}
}
