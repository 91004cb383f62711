package postlink

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

// fakeTokens lends at most limit tokens and counts what it lent.
type fakeTokens struct {
	mu                  sync.Mutex
	limit, out, granted int
	refused, released   int
	peak                int // the most lent at once
}

func (f *fakeTokens) TryAcquire() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.out == f.limit {
		f.refused++
		return false
	}
	f.out++
	f.granted++
	f.peak = max(f.peak, f.out)
	return true
}

// lent is how many tokens are out now (0 for a nil f).
func (f *fakeTokens) lent() int {
	if f == nil {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.out
}

func (f *fakeTokens) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out--
	f.released++
}

// TestWorkersTakeTokens splits a module per kernel with IO.Tokens lending
// at most 0, 1 and 3 tokens: never more than one worker (on the caller's
// token) plus the tokens lent at that moment make modules at once, never
// more than Jobs, and every token lent comes back; the outputs are those of
// a run without a pool.
func TestWorkersTakeTokens(t *testing.T) {
	c := irgen.Scaled(40)
	c.Body = 2
	src, err := irgen.String(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "k.ll")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, jobs int, tokens *fakeTokens) (maxActive int, table string) {
		t.Helper()
		var mu sync.Mutex
		active := 0
		hooks := DefaultHooks()
		lower := hooks.SpecConstants
		hooks.SpecConstants = func(o *Options, mod *Module, mode SpecConstMode, defaults bool) (bool, *Module, error) {
			mu.Lock()
			active++
			maxActive = max(maxActive, active)
			if lent := tokens.lent(); tokens != nil && active > 1+lent {
				t.Errorf("%s: %d workers at once with %d tokens lent", name, active, lent)
			}
			mu.Unlock()
			defer func() {
				mu.Lock()
				active--
				mu.Unlock()
			}()
			return lower(o, mod, mode, defaults)
		}
		out := filepath.Join(dir, name)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		o := Options{Input: in, Outputs: []Output{{File: filepath.Join(out, "out.table")}}, Split: SplitKernel,
			SplitGiven: true, Symbols: true, Properties: true, SpecConst: SpecConstNative, Assembly: true}
		var stderr bytes.Buffer
		rio := IO{Stdout: &stderr, Stderr: &stderr, Argv0: "sycl-post-link", Hooks: &hooks, Jobs: jobs}
		if tokens != nil {
			rio.Tokens = tokens
		}
		if err := Run(&o, rio); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		b, err := os.ReadFile(filepath.Join(out, "out_3.ll"))
		if err != nil {
			t.Fatal(err)
		}
		return maxActive, string(b)
	}
	_, want := run("nopool", 1, nil)
	for _, c := range []struct {
		name        string
		jobs, limit int
	}{{"none", 4, 0}, {"one", 4, 1}, {"three", 2, 3}, {"three4", 4, 3}} {
		tokens := &fakeTokens{limit: c.limit}
		maxActive, got := run(c.name, c.jobs, tokens)
		if maxActive > min(c.jobs, 1+c.limit) {
			t.Errorf("%s: %d workers at once, want at most %d", c.name, maxActive, min(c.jobs, 1+c.limit))
		}
		if tokens.peak > c.jobs-1 {
			t.Errorf("%s: %d tokens taken at once for at most %d extra workers", c.name, tokens.peak, c.jobs-1)
		}
		if tokens.released != tokens.granted || tokens.out != 0 {
			t.Errorf("%s: %d tokens lent, %d given back", c.name, tokens.granted, tokens.released)
		}
		if c.limit == 0 && tokens.refused == 0 {
			t.Errorf("%s: no token was asked for", c.name)
		}
		if got != want {
			t.Errorf("%s: out_3.ll differs from the run without a pool", c.name)
		}
	}
}

// TestParseWorkers: the input's parse takes its workers from what the pool
// lends, at most Jobs less one, and gives them back; without a pool, Jobs
// less one.
func TestParseWorkers(t *testing.T) {
	for _, c := range []struct{ jobs, limit, want int }{{1, 5, 0}, {4, 0, 0}, {4, 2, 2}, {4, 10, 3}} {
		f := &fakeTokens{limit: c.limit}
		n, release := parseWorkers(IO{Jobs: c.jobs, Tokens: f})
		if n != c.want || f.lent() != n {
			t.Errorf("Jobs %d, %d tokens to lend: %d workers, %d tokens out; want %d", c.jobs, c.limit, n, f.lent(), c.want)
		}
		release()
		if f.lent() != 0 {
			t.Errorf("Jobs %d: %d tokens still out after release", c.jobs, f.lent())
		}
	}
	if n, _ := parseWorkers(IO{Jobs: 3}); n != 2 {
		t.Errorf("Jobs 3 without a pool: %d workers, want 2", n)
	}
}
