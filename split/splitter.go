package split

import (
	"sync"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Config is how a module is split.
type Config struct {
	Scope Scope
	// NoSplit is the reference's SPLIT_NONE: the module is never split,
	// only cleaned (entry points still decide what is internalized).
	NoSplit bool
	// OnlyKernels is -emit-only-kernels-as-entry-points.
	OnlyKernels bool
	// AllowDeps is -allow-device-image-dependencies: SYCL_EXTERNAL
	// functions may be imported from other images instead of copied, and
	// no "sycl-entry-point" marks or undefined-function warnings are made.
	AllowDeps bool
	// ModuleName names the module in warnings ("<stdin>" for standard
	// input), as LLVM's module identifier does.
	ModuleName string
	// Removed are entities treated as absent (llvm.used, device globals
	// dropped from llvm.compiler.used before splitting).
	Removed map[*llvmir.Entity]bool
	// Rewritten replaces the text of entities and what they reference
	// (llvm.compiler.used without its device globals).
	Rewritten map[*llvmir.Entity]Rewrite
}

// Rewrite is a replacement of an entity made before splitting.
type Rewrite struct {
	Text    string           // the entity's new text, ending with a newline
	Globals []*llvmir.Entity // what the new text references
}

// Splitter is one input module prepared for splitting: its entry points
// grouped in emission order and, when the module is really split, its
// dependency graph. Modules are then made one group at a time with Part;
// several goroutines may call Part concurrently.
type Splitter struct {
	M      *llvmir.Module
	cfg    Config
	in     *info
	groups []Group
	split  bool
	g      *graph
	md     *mdIndex
	// roots are the global variables that are not discardable if unused:
	// every module starts with them.
	roots []*llvmir.Entity
	// esimd are the module's ESIMD functions.
	esimd []*llvmir.Entity
	marks stampPool[*marks]
	// comdats are scratch counts by comdat number.
	comdats stampPool[*tally]
	// bufs are scratch lists of entity indices.
	bufs bufPool
	// states recycles the parts' memory (Part.Release).
	states sync.Pool
}

// state is a part's memory: its per-entity arrays, zeroed when the part
// is released, and the arrays of its lists.
type state struct {
	st, ed                 []uint8
	edited, decls, written []int32
}

// takeState gives p zeroed per-entity arrays and empty lists: a released
// part's (which Release zeroed) or new ones.
func (s *Splitter) takeState(p *Part) {
	mem, ok := s.states.Get().(*state)
	if !ok {
		n := len(s.M.Entities)
		mem = &state{st: make([]uint8, n), ed: make([]uint8, n)}
	}
	p.mem, p.st, p.ed = mem, mem.st, mem.ed
	p.edited, p.decls, p.written = mem.edited[:0], mem.decls[:0], mem.written[:0]
}

// Release gives the part's memory back for the next parts; the part must
// not be used afterwards (nor its plan written). Value copies of a Part
// share its state: release only one of them, after all are done with.
// Only the entries the part set are cleared, so that releasing costs what
// the part holds.
func (p *Part) Release() {
	mem := p.mem
	if mem == nil {
		return
	}
	for _, i := range p.written {
		mem.st[i] = stNone
	}
	for _, i := range p.edited {
		mem.ed[i] = 0
	}
	mem.edited, mem.decls, mem.written = p.edited[:0], p.decls[:0], p.written[:0]
	p.mem, p.st, p.ed, p.edited, p.decls, p.written = nil, nil, nil, nil, nil, nil
	p.s.states.Put(mem)
}

// New analyses m: entry points, groups and, when splitting, the graph.
func New(m *llvmir.Module, cfg Config) *Splitter {
	s := &Splitter{M: m, cfg: cfg, in: newInfo(m), marks: stampPool[*marks]{n: len(m.Entities), fresh: newMarks}}
	s.in.setChanges(cfg.Removed, cfg.Rewritten)
	s.groups = s.in.groups(cfg.Scope, cfg.OnlyKernels)
	s.split = !cfg.NoSplit && (len(s.groups) > 1 || len(s.groups[0].Entries) > 0)
	s.g = buildGraph(s.in, cfg.AllowDeps)
	s.md = newMDIndex(m)
	s.comdats.n, s.comdats.fresh = len(s.md.comdatNames), newTally
	for _, e := range m.Entities {
		if e.Kind == llvmir.KindGlobalVar && !s.in.isRemoved(e) && !s.in.linkage(e).DiscardableIfUnused() {
			s.roots = append(s.roots, e)
		}
		if IsESIMD(e) {
			s.esimd = append(s.esimd, e)
		}
	}
	return s
}

// Groups returns the groups in emission order.
func (s *Splitter) Groups() []Group { return s.groups }

// Splits reports whether groups become separate modules (the reference's
// ModuleSplitter) rather than the module being copied whole (ModuleCopier).
func (s *Splitter) Splits() bool { return s.split }

// SplitOccurred reports whether more than one module results.
func (s *Splitter) SplitOccurred() bool { return len(s.groups) > 1 }

// Part makes the module of group i: its closure (or, when the module is
// not split, everything), cleaned.
func (s *Splitter) Part(i int) *Part {
	grp := &s.groups[i]
	buf := s.bufs.get()
	if s.split {
		*buf = s.closure(*buf, grp.Entries, nil, nil, nil)
	} else {
		*buf = s.everything(*buf)
	}
	p := s.clean(*buf, cleanOptions{entries: grp.Entries, marked: grp.Entries, hasVirtual: grp.HasVirtual,
		warn: s.split && !s.cfg.AllowDeps, whole: !s.split, status: SYCLOnly})
	s.bufs.put(buf)
	return p
}

// everything appends to out[:0] every function and global variable
// definition.
func (s *Splitter) everything(out []int32) []int32 {
	out = out[:0]
	for _, e := range s.M.Entities {
		if (e.Kind == llvmir.KindFunction || e.Kind == llvmir.KindGlobalVar) && !s.in.isRemoved(e) && !isDecl(e) {
			out = append(out, int32(e.Index))
		}
	}
	return out
}

// closure collects the entry points, the module's non-discardable global
// variables and everything they depend on, appended to queue[:0].
// Functions are only followed when within (nil: any definition) and
// accepted by include (nil: all); extra entities start the walk as well.
func (s *Splitter) closure(queue []int32, entries []*llvmir.Entity, extra []*llvmir.Entity, within []uint8, include func(*llvmir.Entity) bool) []int32 {
	ents := s.M.Entities
	seen := s.marks.get()
	defer s.marks.put(seen)
	queue = queue[:0]
	push := func(i int32) {
		if !seen.has(i) {
			seen.add(i)
			queue = append(queue, i)
		}
	}
	for _, e := range extra {
		push(int32(e.Index))
	}
	for _, e := range entries {
		push(int32(e.Index))
	}
	for _, e := range s.roots {
		if within == nil || within[e.Index] != 0 {
			push(int32(e.Index))
		}
	}
	flags := s.in.flags
	for k := 0; k < len(queue); k++ {
		for _, d := range s.g.deps(int(queue[k])) {
			if f := flags[d]; f&flFunction != 0 {
				if within != nil {
					if within[d] != stDef {
						continue
					}
				} else if f&flDecl != 0 {
					continue
				}
				if include != nil && !include(ents[d]) {
					continue
				}
			}
			push(d)
		}
	}
	return queue
}
