package split

import "github.com/sycbuild/sycbuild/llvmir"

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
	var seen map[*llvmir.Entity]bool // alias cycles
	var add func(src int, t *llvmir.Entity)
	add = func(src int, t *llvmir.Entity) {
		if in.removed[t] {
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
			// An alias is a constant user like a constant expression:
			// whoever references it depends on what it references.
			if seen == nil {
				seen = map[*llvmir.Entity]bool{}
			}
			if seen[t] {
				return
			}
			seen[t] = true
			for _, u := range in.refs(t) {
				add(src, u)
			}
			delete(seen, t)
		}
	}
	for i, e := range ents {
		g.start[i] = int32(len(g.adj))
		if (e.Kind != llvmir.KindFunction && e.Kind != llvmir.KindGlobalVar) || in.removed[e] {
			continue
		}
		for _, t := range in.refs(e) {
			add(i, t)
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
