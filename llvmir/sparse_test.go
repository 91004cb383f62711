package llvmir

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// planCase is one output module described twice: as a full plan (every
// other global value dropped) and as a sparse plan of the same globals,
// with the same edits.
type planCase struct {
	keep  []*Entity // global values kept, in any order
	edits func(p *Plan)
}

// checkSparse writes c both ways and requires the same bytes (or the same
// error); it reports whether the plans wrote a module.
func checkSparse(t *testing.T, m *Module, c planCase, what string) bool {
	t.Helper()
	kept := map[*Entity]bool{}
	for _, e := range c.keep {
		kept[e] = true
	}
	full := m.NewPlan()
	full.KeepOnly(func(e *Entity) bool { return kept[e] })
	sparse := m.NewSparsePlan(c.keep)
	for _, e := range m.Entities {
		if full.Kept(e) != sparse.Kept(e) {
			t.Fatalf("%s: Kept(%s %s) differs: full %v, sparse %v", what, e.Kind, e.Name, full.Kept(e), sparse.Kept(e))
		}
	}
	if c.edits != nil {
		c.edits(full)
		c.edits(sparse)
	}
	var fb, sb bytes.Buffer
	ferr := full.Write(&fb)
	serr := sparse.Write(&sb)
	switch {
	case ferr != nil || serr != nil:
		if ferr == nil || serr == nil || ferr.Error() != serr.Error() {
			t.Fatalf("%s: full plan error %v, sparse plan error %v", what, ferr, serr)
		}
		return false
	case !bytes.Equal(fb.Bytes(), sb.Bytes()):
		t.Fatalf("%s: sparse output differs from the full plan's\n--- full ---\n%s\n--- sparse ---\n%s", what, fb.Bytes(), sb.Bytes())
	}
	return true
}

// randomCases makes n outputs of m from seed: each keeps the closure of a
// few random global values and randomly turns kept definitions into
// declarations, internalizes, adds attributes, filters named metadata, adds
// metadata and drops the odd comdat. The first case keeps nothing.
func randomCases(m *Module, seed uint64, n int) []planCase {
	r := rand.New(rand.NewPCG(seed, 1))
	var gvs []*Entity
	for _, e := range m.Entities {
		if e.Kind.IsGlobalValue() {
			gvs = append(gvs, e)
		}
	}
	cases := []planCase{{}}
	for len(cases) < n && len(gvs) > 0 {
		var roots []*Entity
		for range 1 + r.IntN(3) {
			roots = append(roots, gvs[r.IntN(len(gvs))])
		}
		declare := map[*Entity]bool{}
		keepSet := closure(roots, nil)
		for e := range keepSet {
			if e.Func != nil && !e.Func.Declaration && r.IntN(3) == 0 && !inList(roots, e) {
				declare[e] = true
			}
		}
		keepSet = closure(roots, declare)
		var keep []*Entity
		for _, e := range gvs { // module order, shuffled below
			if keepSet[e] {
				keep = append(keep, e)
			}
		}
		r.Shuffle(len(keep), func(i, j int) { keep[i], keep[j] = keep[j], keep[i] })
		var internal, marked []*Entity
		for _, e := range keep {
			switch {
			case declare[e]:
			case e.Func != nil && !e.Func.Declaration && r.IntN(2) == 0:
				if e.Func.Linkage == LinkOnceODR || e.Func.Linkage == External {
					internal = append(internal, e)
				}
				if r.IntN(2) == 0 {
					marked = append(marked, e)
				}
			case e.Var != nil && e.Var.Init != "" && r.IntN(4) == 0:
				declare[e] = true
			}
		}
		var dropComdat *Entity
		for _, e := range m.Entities {
			if e.Kind == KindComdat && r.IntN(4) == 0 {
				dropComdat = e
				break
			}
		}
		addMD := r.IntN(2) == 0
		keepAll := r.IntN(5) == 0
		cases = append(cases, planCase{keep: keep, edits: func(p *Plan) {
			filterNamedMD(m, p, keepSet)
			for _, e := range keep {
				if declare[e] {
					p.MakeDeclaration(e)
				}
			}
			for _, e := range internal {
				p.SetLinkage(e, Internal)
			}
			for _, e := range marked {
				p.AddFnAttr(e, Attr{Key: "sycl-entry-point", String: true})
			}
			if dropComdat != nil {
				p.Drop(dropComdat)
			}
			if addMD {
				n := p.NewMD("!{i32 " + strconv.Itoa(len(keep)) + "}")
				p.Add(KindNamedMD, "!sparse.test = !{!"+strconv.Itoa(n)+"}")
			}
			if keepAll {
				p.KeepAllMetadata()
			}
		}})
	}
	return cases
}

// TestSparsePlanConformance: on every conformance module, random outputs
// written through a sparse plan are byte for byte those of the full plan.
func TestSparsePlanConformance(t *testing.T) {
	eachConformanceModule(t, func(t *testing.T, path string, src []byte, m *Module) {
		wrote := 0
		for i, c := range randomCases(m, uint64(len(src)), 6) {
			if checkSparse(t, m, c, "case "+strconv.Itoa(i)) {
				wrote++
			}
		}
		t.Logf("%d of 6 outputs written", wrote)
		// Everything kept: the module itself.
		var all []*Entity
		for _, e := range m.Entities {
			if e.Kind.IsGlobalValue() {
				all = append(all, e)
			}
		}
		var b bytes.Buffer
		if err := m.NewSparsePlan(all).Write(&b); err != nil {
			t.Fatal(err)
		}
		if !droppedUnused(b.Bytes(), src) {
			t.Error("a sparse plan keeping every global value does not write the module back")
		}
	})
}

// parseGenerated parses the module internal/irgen makes of c.
func parseGenerated(t *testing.T, c irgen.Config) *Module {
	t.Helper()
	src, err := irgen.String(c)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("irgen.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// kernelCase is the output a per-kernel split makes of generated module
// m for kernel k: the kernel's closure, its named metadata filtered, the
// kernel marked as an entry point.
func kernelCase(m *Module, k int) planCase {
	kern := m.Global(irgen.KernelName(k))
	keepSet := closure([]*Entity{kern}, nil)
	var keep []*Entity
	for e := range keepSet {
		keep = append(keep, e)
	}
	return planCase{keep: keep, edits: func(p *Plan) {
		filterNamedMD(m, p, keepSet)
		p.AddFnAttr(kern, Attr{Key: "sycl-entry-point", String: true})
	}}
}

// TestSparsePlanGenerated does the same on generated modules, typed and
// opaque pointers, one output per kernel as a split makes them.
func TestSparsePlanGenerated(t *testing.T) {
	for _, typed := range []bool{false, true} {
		c := irgen.Small()
		c.Typed = typed
		m := parseGenerated(t, c)
		wrote := 0
		for i, pc := range randomCases(m, 7, 12) {
			if checkSparse(t, m, pc, "random case "+strconv.Itoa(i)) {
				wrote++
			}
		}
		for k := 0; k < c.Kernels; k++ {
			if checkSparse(t, m, kernelCase(m, k), "kernel "+strconv.Itoa(k)) {
				wrote++
			}
		}
		if wrote < c.Kernels {
			t.Errorf("typed=%v: only %d of the outputs were written", typed, wrote)
		}
	}
}

// TestSparsePlanBasics pins what a sparse plan writes of the plan test
// module: only the kept global values, the comdat one of them is in, the
// metadata they reach, and the module-level entities.
func TestSparsePlanBasics(t *testing.T) {
	m := parsePlanSrc(t)
	g := m.Global
	p := m.NewSparsePlan([]*Entity{g("k2"), g("_Z1hi"), g("g"), m.UnnamedGlobal(2)})
	if p.Kept(g("k1")) || !p.Kept(g("k2")) || !p.Kept(m.NamedMD("llvm.module.flags")) {
		t.Error("Kept does not follow the given globals")
	}
	p.SetNamedMDOps(m.NamedMD("sycl.kernels"), []string{"!2"})
	p.SetLinkage(g("_Z1hi"), Internal)
	// A header edit of a body whose @N references are renumbered.
	p.AddFnAttr(g("k2"), Attr{Key: "sycl-entry-point", String: true})
	out := string(writePlan(t, p))
	for _, want := range []string{
		"$_Z1hi = comdat any\n", "@0 = private unnamed_addr constant [2 x i8] c\"c\\00\"\n",
		"define internal spir_func i32 @_Z1hi(i32 %x) #0 comdat {", "%0 = load i8, ptr @0, align 1",
		"define spir_kernel void @k2() #1 {\nentry:\n",
		"!sycl.kernels = !{!2}\n", "!2 = !{ptr @k2, !\"k2\"}\n",
		"attributes #1 = { convergent \"sycl-entry-point\" \"sycl-module-id\"=\"t.cpp\" }",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"@k1", "@tab", "@str", "!3 =", "!1 ="} {
		if strings.Contains(out, not) {
			t.Errorf("output holds %q:\n%s", not, out)
		}
	}
	// Dropping what a kept entity needs fails as on a full plan.
	p = m.NewSparsePlan([]*Entity{g("k2")})
	p.SetNamedMDOps(m.NamedMD("sycl.kernels"), []string{"!2"})
	var b bytes.Buffer
	if err := p.Write(&b); err == nil || !strings.Contains(err.Error(), "references @2, which is not in the output") {
		t.Errorf("dangling reference: got %v", err)
	}
	p = m.NewSparsePlan([]*Entity{g("k1"), g("_Z1hi"), g("g"), g("spec"), g("str"), m.UnnamedGlobal(0)})
	p.Drop(m.MD(5))
	p.SetNamedMDOps(m.NamedMD("sycl.kernels"), []string{"!1"})
	if err := p.Write(&b); err == nil || !strings.Contains(err.Error(), "metadata !5 is needed but was dropped") {
		t.Errorf("dropped metadata: got %v", err)
	}
}

// TestSparsePlanConcurrent: the first sparse plans of a module may be made
// and written from several goroutines at once (the module index is built
// once). Run under -race.
func TestSparsePlanConcurrent(t *testing.T) {
	m := parsePlanSrc(t)
	want := writePlan(t, m.NewPlan())
	all := append(m.Functions(), m.GlobalVars()...)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			if err := m.NewSparsePlan(all).Write(&b); err != nil {
				t.Error(err)
			} else if !bytes.Equal(b.Bytes(), want) {
				t.Error("concurrent sparse plan wrote a different module")
			}
		}()
	}
	wg.Wait()
}
