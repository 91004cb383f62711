package llvmir

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A module of many bodies parses them on two goroutines: the writer
// parses them in order, from the first, while a helper parses them from
// the last, each into a kept body (bcBody, as a BodyCache keeps one) with
// a writer of its own over the same module. With a BodyCache, the helper
// leaves the bodies it holds to the writer, and the writer keeps the
// helper's bodies in it as it would keep its own. Where the two meet, the
// writer takes the helper's bodies, asking its own tables their deps in
// order (replay): a module replayed whole takes about a third of the time
// of its parse (BENCHMARKS.md), and the tables grow as the parse would
// grow them, so the bitcode is the same bytes.
// Bodies a kept body cannot hold (bcBody's list: debug records, metadata
// operands, …) the writer parses itself, as it does any body the helper
// failed on; the helper stops at its first failure, and the writer's own
// parse of that body says what is wrong with it.

// minAhead is the fewest bodies a module needs for a helper: starting one
// costs a second reading of the module's globals, and with a BodyCache
// a second hash of each body. Most modules of a per-kernel split have
// fewer (their writer runs beside the split's other work anyway). (A
// variable: the tests give every module one, or none.)
var minAhead = 64

// bcAhead is the helper of a writer.
type bcAhead struct {
	w     *bcw
	cache *BodyCache      // the writer's, or nil
	claim []atomic.Int32  // per body: claimFree, claimWriter or claimHelper
	kept  []*bcBody       // the helper's bodies (nil where it kept none)
	done  []chan struct{} // closed when the helper is done with a body
	stop  atomic.Bool
	wg    sync.WaitGroup
}

const (
	claimFree = iota
	claimWriter
	claimHelper
)

// startAhead starts the helper of a module of enough bodies, where a
// second CPU can run it; nil otherwise. With a BodyCache, the helper
// leaves the bodies the cache holds to the writer.
func (a *bcw) startAhead() *bcAhead {
	n := len(a.funcs)
	if n < minAhead || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	w := newBCW(a.m, BitcodeOptions{LLVM: a.gen})
	w.recordDeps = true
	w.p.lines = new([]int) // its failures are not reported: no shared table
	w.p.helper = true
	w.slabs = bcSlabPool.Get().(*bcSlabs)
	w.deps, w.res = w.slabs.deps, w.slabs.res
	h := &bcAhead{w: w, cache: a.bodies, claim: make([]atomic.Int32, n), kept: make([]*bcBody, n), done: make([]chan struct{}, n)}
	for i := range h.done {
		h.done[i] = make(chan struct{})
	}
	h.wg.Add(1)
	go h.run()
	return h
}

// run is the helper: it reads the module's globals, then parses bodies
// from the last until it meets the writer or fails.
func (h *bcAhead) run() {
	defer h.wg.Done()
	if !h.prelude() {
		return
	}
	for i := len(h.claim) - 1; i >= 0 && !h.stop.Load(); i-- {
		if !h.claim[i].CompareAndSwap(claimFree, claimHelper) {
			return // the writer got here first
		}
		ok := h.parse(i)
		close(h.done[i])
		if !ok {
			return
		}
	}
}

// prelude reads the module's globals into the helper's writer; false when
// that failed (the writer's own reading will say why).
func (h *bcAhead) prelude() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	h.w.prelude()
	return len(h.w.funcs) == len(h.claim)
}

// parse parses body i and keeps it; false when the parse failed.
func (h *bcAhead) parse(i int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f := h.w.funcs[i]
	if h.cache != nil && h.cache.holds(h.w.bodyKey(f)) {
		return true // the writer takes it from the cache
	}
	h.w.parseBody(f)
	if !f.noCache {
		h.kept[i] = h.w.compact(f)
	}
	// What the parse built is not needed again: the slabs it used stay
	// the helper's until the end, but the body's lists go now.
	f.insts, f.order = nil, nil
	return true
}

// take returns the helper's kept body i, waiting for it if the helper is
// parsing it; nil when the writer is to parse body i itself. It claims
// body i for the writer when the helper has not.
func (h *bcAhead) take(i int) *bcBody {
	if h == nil || h.claim[i].CompareAndSwap(claimFree, claimWriter) {
		return nil
	}
	<-h.done[i]
	return h.kept[i]
}

// finish stops the helper, waits for it and gives its slabs back.
func (h *bcAhead) finish() {
	if h == nil {
		return
	}
	h.stop.Store(true)
	h.wg.Wait()
	w := h.w
	w.slabs.release()
	w.slabs.deps, w.slabs.res = w.deps[:0], w.res[:0]
	bcSlabPool.Put(w.slabs)
}
