package llvmir

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// gatherStats counts what checkGather saw, so that the tests can tell
// they exercised source references and renumbering between them.
type gatherStats struct {
	outputs, refs, renumbered int
}

// checkGather writes plan p with Append and with Gather (through g, reused
// from case to case), with and without comment stripping, and requires the
// same bytes, or the same error.
func checkGather(t *testing.T, p *Plan, g *Gathered, st *gatherStats, what string) {
	t.Helper()
	for _, strip := range []bool{false, true} {
		o := WriteOptions{StripComments: strip}
		want, werr := p.Append(nil, o)
		g.Reset()
		gerr := p.Gather(g, o)
		if werr != nil || gerr != nil {
			if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
				t.Fatalf("%s: Append error %v, Gather error %v", what, werr, gerr)
			}
			continue
		}
		pieces := g.Pieces(nil)
		for i, pc := range pieces {
			if len(pc) == 0 {
				t.Fatalf("%s: piece %d is empty", what, i)
			}
		}
		got := bytes.Join(pieces, nil)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s (strip %v): gathered output differs from Append's\n--- Append ---\n%s\n--- Gather ---\n%s", what, strip, want, got)
		}
		st.outputs++
		st.refs += len(g.refs)
		if p.m.numberedGlobals() && len(g.refs) > 0 {
			st.renumbered++
		}
	}
}

// numberedGlobals reports whether m defines an unnamed global value.
func (m *Module) numberedGlobals() bool {
	for _, e := range m.Entities {
		if e.Numbered && e.Kind.IsGlobalValue() {
			return true
		}
	}
	return false
}

// TestGatherConformance: on every conformance module, random outputs
// gathered are byte for byte what Append renders.
func TestGatherConformance(t *testing.T) {
	var g Gathered
	var st gatherStats
	eachConformanceModule(t, func(t *testing.T, path string, src []byte, m *Module) {
		for i, c := range randomCases(m, uint64(len(src)), 6) {
			p := m.NewSparsePlan(c.keep)
			if c.edits != nil {
				c.edits(p)
			}
			checkGather(t, p, &g, &st, "case "+strconv.Itoa(i))
		}
		checkGather(t, m.NewPlan(), &g, &st, "whole module")
	})
	if st.outputs > 0 && st.refs == 0 {
		t.Errorf("%d outputs gathered, none with a source reference", st.outputs)
	}
}

// TestGatherGenerated does the same on a generated module whose kernels
// reference unnamed globals, one output per kernel as a split makes them:
// the unnamed globals are renumbered in the kernels' long bodies, which
// are referenced in pieces around the new numbers.
func TestGatherGenerated(t *testing.T) {
	c := irgen.Small()
	c.Body = 40
	m := parseGenerated(t, c)
	if !m.numberedGlobals() {
		t.Fatal("the generated module has no unnamed global: nothing is renumbered")
	}
	var g Gathered
	var st gatherStats
	for k := 0; k < c.Kernels; k++ {
		kc := kernelCase(m, k)
		p := m.NewSparsePlan(kc.keep)
		kc.edits(p)
		checkGather(t, p, &g, &st, "kernel "+strconv.Itoa(k))
	}
	if st.renumbered == 0 {
		t.Errorf("no output gathered source references with unnamed globals renumbered (%d outputs, %d references)", st.outputs, st.refs)
	}
}

// TestGatherRenumberedPieces pins how a long text with @N references is
// gathered: source references around the new numbers, which are copied,
// and no reference inside a string, a comment or a quoted name.
func TestGatherRenumberedPieces(t *testing.T) {
	long := strings.Repeat("  %x = add i32 1, 2\n", 40)
	text := []byte("define void @f() {\n" + long + "  call void @2() ; @2 in a comment\n" + long +
		"  store ptr @\"2\", ptr @2\n  ret void\n}\n")
	s := &streamer{g: &Gathered{}, renum: map[int]int{2: 0}}
	s.source(text, s.renum)
	s.g.buf = s.buf
	got := string(bytes.Join(s.g.Pieces(nil), nil))
	want := string(appendRenumbered(nil, text, s.renum))
	if got != want {
		t.Fatalf("gathered %q\nwant %q", got, want)
	}
	if n := strings.Count(want, "@0"); n != 2 {
		t.Fatalf("%d references renumbered, want 2", n)
	}
	if len(s.g.refs) != 2 {
		t.Errorf("%d source references, want 2 (the long runs before each renumbered reference)", len(s.g.refs))
	}
	if string(s.buf) != "00\n  ret void\n}\n" {
		t.Errorf("copied %q, want only the two numbers and the short tail", s.buf)
	}
}

// TestEntityTable checks the sparse plans' table against a map, through
// growth, overwrites (nil included), clears and resets of every size.
func TestEntityTable(t *testing.T) {
	var tab entityTable
	outs := make([]outEntity, 4)
	var before []int32 // the keys of the round before
	for round, n := range []int{0, 5, 300, 40, 5000, 3, 1} {
		if round%2 == 0 {
			tab.clear()
		} else {
			tab.reset(n)
		}
		for _, i := range before {
			if got := tab.get(i); got != nil {
				t.Fatalf("round %d: get(%d), a key of the round before, = %p", round, i, got)
			}
		}
		want := map[int32]*outEntity{}
		var order []int32
		for k := 0; k < n; k++ {
			// Clustered keys, as a module's entities are, and repeats.
			i := int32(k*7%(n+3) + round*100000)
			o := &outs[k%4]
			if k%11 == 0 {
				o = nil
			}
			if _, ok := want[i]; !ok {
				order = append(order, i)
			}
			want[i] = o
			tab.set(i, o)
		}
		if tab.len() != len(want) {
			t.Fatalf("round %d: len %d, want %d", round, tab.len(), len(want))
		}
		if 2*tab.len() > len(tab.slots) {
			t.Fatalf("round %d: %d entries in %d slots", round, tab.len(), len(tab.slots))
		}
		for i, o := range want {
			if got := tab.get(i); got != o {
				t.Fatalf("round %d: get(%d) = %p, want %p", round, i, got, o)
			}
		}
		for _, i := range []int32{-1, 1 << 30, int32(round*100000 + n + 5)} {
			if got := tab.get(i); got != nil {
				t.Fatalf("round %d: get(%d) of a missing key = %p", round, i, got)
			}
		}
		var seen []int32
		tab.each(func(i int32, o *outEntity) {
			if want[i] != o {
				t.Fatalf("round %d: each gave %d → %p, want %p", round, i, o, want[i])
			}
			seen = append(seen, i)
		})
		before = order
		if !slices.Equal(seen, order) {
			t.Fatalf("round %d: each's order %v, want the order of first set %v", round, seen[:min(8, len(seen))], order[:min(8, len(order))])
		}
	}
	tab.reset(4)
	if len(tab.slots) > 16*16 {
		t.Errorf("a reset for 4 entries kept %d slots", len(tab.slots))
	}
}
