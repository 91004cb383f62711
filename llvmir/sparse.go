package llvmir

import "slices"

// planIndex is what the sparse plans of one module share, computed once:
// the module-level entities every output writes whatever global values it
// keeps (header lines, named types, named metadata, use-list orders, …).
type planIndex struct {
	// fixed are the indices of the entities that are neither global values
	// nor comdats nor numbered metadata nor attribute groups, in module
	// order.
	fixed []int32
}

// planIndex returns the module's index for sparse plans, built on first
// use (safe from several goroutines).
func (m *Module) planIndex() *planIndex {
	m.planIxOnce.Do(func() {
		ix := &planIndex{}
		for i, e := range m.Entities {
			switch {
			case e.Kind.IsGlobalValue(), e.Kind == KindComdat, e.Kind == KindMDNode, e.Kind == KindAttrGroup:
			default:
				ix.fixed = append(ix.fixed, int32(i))
			}
		}
		m.planIx = ix
	})
	return m.planIx
}

// NewSparsePlan starts a plan that keeps exactly the given global values
// (functions, variables, aliases, ifuncs; any other entity in globals is
// kept as by Keep) and every other entity. Its output is byte for byte that
// of a NewPlan with the other global values dropped and the same edits, and
// Keep, Drop and every edit work as on such a plan; but writing it costs
// what it writes, not what the module holds: a module split into many small
// ones pays for each output only its own global values, the module-level
// entities (header lines, named types, named metadata), the comdats its
// definitions are in, and the attribute groups and numbered metadata
// reachable from what it writes; the module-level entities without edits
// are written from the module as they are. (KeepOnly and KeepAllMetadata still look at the
// whole module.) Edits of entities it does not write are never rendered,
// so a bad one is not reported as a full plan would report it. The first
// sparse plan of a module indexes it once.
func (m *Module) NewSparsePlan(globals []*Entity) *Plan {
	sp := &sparseState{ix: m.planIndex(), ents: m.Entities, keep: make(map[int32]bool, len(globals)+8)}
	for _, e := range globals {
		sp.set(e, true)
	}
	return &Plan{
		m:         m,
		sp:        sp,
		edits:     map[*Entity]*edit{},
		nextMD:    m.maxMD + 1,
		nextGroup: m.maxGroup + 1,
	}
}

// sparseState is the keep/drop state of a sparse plan: the explicit
// decisions, by entity index. A global value without one is dropped, any
// other entity kept.
type sparseState struct {
	ix   *planIndex
	ents []*Entity
	keep map[int32]bool
}

func (s *sparseState) set(e *Entity, keep bool) { s.keep[int32(e.Index)] = keep }

func (s *sparseState) kept(e *Entity) bool {
	if k, ok := s.keep[int32(e.Index)]; ok {
		return k
	}
	return !e.Kind.IsGlobalValue()
}

// keptGlobals returns the kept global values, in module order.
func (s *sparseState) keptGlobals() []int32 {
	gvs := make([]int32, 0, len(s.keep))
	for i, k := range s.keep {
		if k && s.ents[i].Kind.IsGlobalValue() {
			gvs = append(gvs, i)
		}
	}
	slices.Sort(gvs)
	return gvs
}

// OtherReferrers returns the entities that are not global values but
// reference one (named metadata, metadata nodes, use-list orders), in
// module order. They are found once per module (safe from several
// goroutines), so that work on one output module can look at its own
// global values and these instead of the whole module.
func (m *Module) OtherReferrers() []*Entity {
	m.referrersOnce.Do(func() {
		for _, e := range m.Entities {
			if !e.Kind.IsGlobalValue() && len(e.Globals) > 0 {
				m.referrers = append(m.referrers, e)
			}
		}
	})
	return m.referrers
}
