package split

import (
	"slices"

	"github.com/sycbuild/sycbuild/llvmir"
)

// graph is the dependency graph of one input module, built once: for each
// function and global variable (by entity index), the functions and global
// variables it depends on (see the package documentation for the rules).
// Adjacency is stored compactly (CSR): the dependencies of entity i are
// adj[start[i]:start[i+1]].
type graph struct {
	start []int32
	adj   []int32
}

func (g *graph) deps(i int) []int32 { return g.adj[g.start[i]:g.start[i+1]] }

// buildGraph computes the graph of in.m.
func buildGraph(in *info, allowDeps bool) *graph {
	ents := in.m.Entities
	importable := make([]bool, len(ents))
	// Indirect-call candidates: non-kernel "referenced-indirectly"
	// functions, by the text of their function type.
	bySig := map[string][]int32{}
	for _, e := range ents {
		if e.Kind != llvmir.KindFunction {
			continue
		}
		importable[e.Index] = in.canBeImported(e, allowDeps)
		if !in.isKernel(e) && in.hasAttr(e, attrReferencedIndirectly) {
			sig := e.Func.Type().String()
			bySig[sig] = append(bySig[sig], int32(e.Index))
		}
	}
	g := &graph{start: make([]int32, len(ents)+1)}
	aliases := aliasDeps{in: in, importable: importable}
	add := func(t *llvmir.Entity) {
		if in.isRemoved(t) {
			return
		}
		switch t.Kind {
		case llvmir.KindFunction:
			if !importable[t.Index] {
				g.adj = append(g.adj, int32(t.Index))
			}
		case llvmir.KindGlobalVar:
			g.adj = append(g.adj, int32(t.Index))
		case llvmir.KindAlias, llvmir.KindIFunc:
			g.adj = append(g.adj, aliases.of(t)...)
		}
	}
	for i, e := range ents {
		g.start[i] = int32(len(g.adj))
		if (e.Kind != llvmir.KindFunction && e.Kind != llvmir.KindGlobalVar) || in.isRemoved(e) {
			continue
		}
		for _, t := range in.refs(e) {
			add(t)
		}
		if e.Func != nil && !importable[i] {
			for c := range e.Func.Calls {
				call := &e.Func.Calls[c]
				if !isIndirectCall(call) || call.FnType == nil {
					continue
				}
				g.adj = append(g.adj, bySig[call.FnType.String()]...)
			}
		}
	}
	g.start[len(ents)] = int32(len(g.adj))
	return g
}

// isIndirectCall is CallBase::isIndirectCall: the callee is neither a
// global nor another constant (a bitcast of a function is a direct call)
// nor inline assembly.
func isIndirectCall(c *llvmir.Call) bool {
	if c.Callee != nil || c.CastCallee != nil || c.InlineAsm {
		return false
	}
	return len(c.CalleeText) > 0 && c.CalleeText[0] == '%'
}

// aliasDeps are the dependencies aliases and ifuncs stand for. An alias is
// a constant user like a constant expression: whoever references it
// depends on what it references, through other aliases. Each alias is
// resolved once, without recursion (alias chains can be as long as the
// module), and alias cycles end where they close.
type aliasDeps struct {
	in         *info
	importable []bool
	done       map[*llvmir.Entity][]int32
	onPath     map[*llvmir.Entity]bool
}

// of returns the functions and global variables alias a depends on, each
// once, in index order.
func (d *aliasDeps) of(a *llvmir.Entity) []int32 {
	if deps, ok := d.done[a]; ok {
		return deps
	}
	if d.done == nil {
		d.done, d.onPath = map[*llvmir.Entity][]int32{}, map[*llvmir.Entity]bool{}
	}
	type frame struct {
		a    *llvmir.Entity
		refs []*llvmir.Entity
		deps []int32
	}
	stack := []frame{{a: a, refs: d.in.refs(a)}}
	d.onPath[a] = true
	for {
		f := &stack[len(stack)-1]
		if len(f.refs) == 0 {
			slices.Sort(f.deps)
			deps := slices.Compact(f.deps)
			d.done[f.a] = deps
			delete(d.onPath, f.a)
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return deps
			}
			p := &stack[len(stack)-1]
			p.deps = append(p.deps, deps...)
			continue
		}
		t := f.refs[0]
		f.refs = f.refs[1:]
		if d.in.isRemoved(t) {
			continue
		}
		switch t.Kind {
		case llvmir.KindFunction:
			if !d.importable[t.Index] {
				f.deps = append(f.deps, int32(t.Index))
			}
		case llvmir.KindGlobalVar:
			f.deps = append(f.deps, int32(t.Index))
		case llvmir.KindAlias, llvmir.KindIFunc:
			if deps, ok := d.done[t]; ok {
				f.deps = append(f.deps, deps...)
			} else if !d.onPath[t] {
				d.onPath[t] = true
				stack = append(stack, frame{a: t, refs: d.in.refs(t)})
			}
		}
	}
}
