package llvmir

import (
	"bytes"
	"sync"
	"sync/atomic"
)

// Function bodies are most of a module's text, and scanning one needs
// nothing of another: the top-level pass can leave them to other
// goroutines. It still has to know where a body ends to go on, and
// finding that needs the scan it wants to skip, so it guesses: LLVM's
// printer ends every body with a line that is only "}", and no line inside
// a body starts with '}'. A worker scans the body up to that guess, and
// the guess holds when the body's braces close exactly there. When one
// does not (hand-written IR can start a line inside a body with '}', or
// put a whole body on one line) or the input has an error, the module is
// parsed again the ordinary way, which gives the same module and the
// same errors as always.

// parallelMin is the smallest input whose bodies are scanned by workers:
// below it, starting them costs more than it saves.
var parallelMin = 4 << 20

// bodyTask is a function body the top-level pass left to the workers,
// with what the pass had found in the function's header.
type bodyTask struct {
	e         *Entity
	open, end int // the body's '{' and the end the pass guessed
	refs      []rawRef
	mdRefs    []rawMD
	groups    []int32
	numAt     bool
}

// workerStarted is called as each worker of a parse starts (tests count
// them).
var workerStarted = func() {}

// bodies runs the workers of one parse.
type bodies struct {
	tasks  chan bodyTask
	wg     sync.WaitGroup
	failed atomic.Bool // a guess was wrong or a body has an error
	types  sync.Mutex  // guards the module's named types
}

// parseParallel parses src with its function bodies scanned by workers;
// it returns ok false when it cannot stand for the ordinary parse (a wrong
// guess, an error) and src must be parsed again.
func parseParallel(file string, src []byte, workers int) (m *Module, ok bool) {
	m = newModule(file, src)
	b := &bodies{tasks: make(chan bodyTask, 256)}
	p := &parser{m: m, file: file, src: src, lx: lexer{src: src, end: len(src)}, lines: &m.lines, bodies: b}
	for range workers {
		b.wg.Add(1)
		workerStarted()
		go b.work(p.worker())
	}
	p.parseTop()
	close(b.tasks)
	b.wg.Wait()
	if len(p.errs) > 0 || b.failed.Load() {
		return nil, false
	}
	p.checkRecursiveStructs()
	if len(p.errs) == 0 {
		p.resolve()
	}
	if len(p.errs) > 0 || len(p.implicit) > 0 {
		// Errors, and intrinsics to declare, are left to the parse of one.
		return nil, false
	}
	return m, true
}

// worker returns a parser for scanning bodies beside p: the same module
// and source, its own lexer and per-entity state.
func (p *parser) worker() *parser {
	return &parser{m: p.m, file: p.file, src: p.src, lx: lexer{src: p.src, end: len(p.src)}, lines: new([]int), bodies: p.bodies}
}

// work scans the bodies of tasks with parser w until there are none.
func (b *bodies) work(w *parser) {
	defer b.wg.Done()
	for t := range b.tasks {
		if b.failed.Load() {
			continue
		}
		if !w.scanBody(t) {
			b.failed.Store(true)
		}
	}
}

// scanBody scans the body of task t as the top-level pass would have and
// completes its entity; it reports whether the body ends where the pass
// guessed and has no error.
func (p *parser) scanBody(t bodyTask) bool {
	e, f := t.e, t.e.Func
	p.refs, p.mdRefs, p.groups = append(p.refs[:0], t.refs...), append(p.mdRefs[:0], t.mdRefs...), append(p.groups[:0], t.groups...)
	p.selfAt, p.calleeAt, p.numAt = -1, -1, t.numAt
	end := -1
	if err := p.guard(func() { end = p.scan(t.open, t.end, f) }); err != nil || end != t.end {
		return false
	}
	p.record(e)
	return true
}

// guessBodyEnd returns where the body whose '{' is at open ends if it
// ends as LLVM prints it: after the first '}' that starts a line and is
// the whole line.
func guessBodyEnd(src []byte, open int) (int, bool) {
	// '}' is rare inside bodies and newlines are everywhere: look for the
	// brace, then at its neighbours.
	from := open + 1
	for {
		i := bytes.IndexByte(src[from:], '}')
		if i < 0 {
			return 0, false
		}
		at := from + i
		end := at + 1
		if src[at-1] == '\n' && (end == len(src) || src[end] == '\n' || (src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n')) {
			return end, true
		}
		from = end
	}
}

// deferBody hands the body of function entity e, whose '{' is at open,
// to the workers when its end can be guessed; it returns that end, or -1
// when the pass must scan the body itself.
func (p *parser) deferBody(e *Entity, open int) int {
	end, ok := guessBodyEnd(p.src, open)
	if !ok {
		return -1
	}
	p.pending = &bodyTask{e: e, open: open, end: end}
	return end
}

// sendPending gives the workers the body the entity just parsed left to
// them, with the header's references.
func (p *parser) sendPending() {
	t := p.pending
	p.pending = nil
	t.refs = append([]rawRef(nil), p.refs...)
	t.mdRefs = append([]rawMD(nil), p.mdRefs...)
	t.groups = append([]int32(nil), p.groups...)
	t.numAt = p.numAt
	p.bodies.tasks <- *t
}
