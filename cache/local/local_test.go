package local_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/local"
)

// warnings collects a cache's warnings.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(s string) { w.mu.Lock(); w.list = append(w.list, s); w.mu.Unlock() }

func (w *warnings) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

// action returns the action number n, whose single output out/n.bin holds
// contents(n, size).
func action(n int) *cache.Action {
	return &cache.Action{
		Tools:   []string{"llc-19 19.1.7"},
		Argvs:   [][]string{{"llc-19", "-o", fmt.Sprintf("out/%d.bin", n), fmt.Sprintf("in/%d.bc", n)}, {"chmod", "+x", fmt.Sprintf("out/%d.sh", n)}},
		Inputs:  []cache.Input{{Path: fmt.Sprintf("in/%d.bc", n), Hash: fmt.Sprintf("%064x", n), Size: int64(n)}},
		Outputs: []string{fmt.Sprintf("out/%d.bin", n), fmt.Sprintf("out/%d.sh", n)},
	}
}

func contents(n, size int) []byte {
	b := bytes.Repeat([]byte(fmt.Sprintf("<%d>", n)), size/3+1)
	return b[:size]
}

// run writes action n's outputs under dir, as running it would.
func run(t testing.TB, dir string, n, size int) {
	t.Helper()
	if err := write(dir, n, size); err != nil {
		t.Fatal(err)
	}
}

func write(dir string, n, size int) error {
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o777); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "out", fmt.Sprintf("%d.bin", n)), contents(n, size), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "out", fmt.Sprintf("%d.sh", n)), []byte("#!/bin/sh\n"), 0o755)
}

// check returns what is wrong with a hit of action n under dir.
func check(r *cache.Result, dir string, n, size int) error {
	if r == nil {
		return fmt.Errorf("action %d: miss", n)
	}
	if want := fmt.Sprintf("ran %d\n", n); string(r.Output) != want || r.Source != cache.Local {
		return fmt.Errorf("action %d: output %q from %v, want %q from local", n, r.Output, r.Source, want)
	}
	got, err := os.ReadFile(filepath.Join(dir, "out", fmt.Sprintf("%d.bin", n)))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, contents(n, size)) {
		return fmt.Errorf("action %d: output differs", n)
	}
	fi, err := os.Stat(filepath.Join(dir, "out", fmt.Sprintf("%d.sh", n)))
	if err != nil {
		return err
	}
	if fi.Mode()&0o100 == 0 {
		return fmt.Errorf("action %d: the executable output lost its mode (%v)", n, fi.Mode())
	}
	return nil
}

func result(n int) *cache.Result { return &cache.Result{Output: []byte(fmt.Sprintf("ran %d\n", n))} }

func openCache(t testing.TB, dir string, max int64, w *warnings) *local.Cache {
	t.Helper()
	c, err := local.Open(local.Options{Dir: dir, MaxSize: max, Warn: w.add})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPutGetTwoCheckouts stores an action from one directory and restores
// it into another; a changed input misses.
func TestPutGetTwoCheckouts(t *testing.T) {
	var w warnings
	ctx := context.Background()
	c := openCache(t, t.TempDir(), 0, &w)
	one, two := t.TempDir(), t.TempDir()
	if r, err := c.Get(ctx, action(1), one); r != nil || err != nil {
		t.Fatalf("Get on an empty cache = %v, %v", r, err)
	}
	run(t, one, 1, 1000)
	if err := c.Put(ctx, action(1), result(1), one); err != nil {
		t.Fatal(err)
	}
	r, err := c.Get(ctx, action(1), two)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(r, two, 1, 1000); err != nil {
		t.Error(err)
	}
	changed := action(1)
	changed.Inputs[0].Hash = fmt.Sprintf("%064x", 99)
	if r, _ := c.Get(ctx, changed, t.TempDir()); r != nil {
		t.Errorf("a changed input hit")
	}
	if got := c.Counters(); got != (cache.Counters{LocalHits: 1, Misses: 2, Stored: 1}) {
		t.Errorf("counters = %+v", got)
	}
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries != 1 || s.Blobs != 2 || s.Bytes < 1010 {
		t.Errorf("stats = %+v", s)
	}
	if err := c.Clean(); err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Stats(); s.Entries != 0 || s.Blobs != 0 || s.Bytes != 0 {
		t.Errorf("stats after Clean = %+v", s)
	}
	if r, _ := c.Get(ctx, action(1), t.TempDir()); r != nil {
		t.Errorf("hit after Clean")
	}
	c.Close()
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
}

// TestCorrupted damages a blob and an entry: each lookup is a miss with a
// warning, writes no output, and removes the damaged file.
func TestCorrupted(t *testing.T) {
	var w warnings
	ctx := context.Background()
	dir := t.TempDir()
	c := openCache(t, dir, 0, &w)
	src := t.TempDir()
	for n := 1; n <= 2; n++ {
		run(t, src, n, 500)
		c.Put(ctx, action(n), result(n), src)
	}
	blob := filepath.Join(dir, "cas", cache.DigestOf(contents(1, 500)).Hash[:2], cache.DigestOf(contents(1, 500)).Hash)
	b, err := os.ReadFile(blob)
	if err != nil {
		t.Fatal(err)
	}
	b[100] ^= 1
	os.WriteFile(blob, b, 0o644)
	enc, _ := cache.Encode(action(2))
	entry := filepath.Join(dir, "ac", enc.Key.Hash[:2], enc.Key.Hash)
	os.WriteFile(entry, []byte(`{"key":`), 0o644)

	for n := 1; n <= 2; n++ {
		dst := t.TempDir()
		if r, err := c.Get(ctx, action(n), dst); r != nil || err != nil {
			t.Errorf("Get of damaged action %d = %v, %v", n, r, err)
		}
		if des, _ := os.ReadDir(filepath.Join(dst, "out")); len(des) > 0 {
			t.Errorf("a miss left %d files", len(des))
		}
	}
	ws := w.get()
	if len(ws) != 2 || !strings.Contains(ws[0], "does not match its digest") || !strings.Contains(ws[1], "damaged") {
		t.Errorf("warnings = %q", ws)
	}
	for _, p := range []string{blob, entry} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was not removed", p)
		}
	}
	// Stored again, it hits again.
	c.Put(ctx, action(1), result(1), src)
	dst := t.TempDir()
	r, err := c.Get(ctx, action(1), dst)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(r, dst, 1, 500); err != nil {
		t.Error(err)
	}
}

// TestEvictLeastRecentlyUsed fills a cache past its bound: Trim brings it
// under nine tenths of the bound, removing the entries used least
// recently; a lookup makes an old entry recent.
func TestEvictLeastRecentlyUsed(t *testing.T) {
	var w warnings
	ctx := context.Background()
	dir := t.TempDir()
	const size, max = 10_000, 100_000
	big := openCache(t, dir, 1<<30, &w)
	src := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for n := 0; n < 12; n++ {
		run(t, src, n, size)
		if err := big.Put(ctx, action(n), result(n), src); err != nil {
			t.Fatal(err)
		}
		// Action n was last used n minutes after base.
		age(t, dir, n, base.Add(time.Duration(n)*time.Minute))
	}
	big.Close()
	c := openCache(t, dir, max, &w)
	// Use action 0, the oldest, again.
	if r, _ := c.Get(ctx, action(0), t.TempDir()); r == nil {
		t.Fatal("miss of a stored action")
	}
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Bytes > max*9/10 {
		t.Errorf("cache holds %d bytes after the trim, bound %d", s.Bytes, max)
	}
	var kept []int
	for n := 0; n < 12; n++ {
		dst := t.TempDir()
		if r, _ := c.Get(ctx, action(n), dst); r != nil {
			if err := check(r, dst, n, size); err != nil {
				t.Error(err)
			}
			kept = append(kept, n)
		}
	}
	// Removed first: 1, 2, 3, … (0 was used again).
	want := []int{0, 5, 6, 7, 8, 9, 10, 11}
	if fmt.Sprint(kept) != fmt.Sprint(want) {
		t.Errorf("kept %v, want %v (stats %+v)", kept, want, s)
	}
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
}

// age sets the modification time of action n's entry and blob.
func age(t *testing.T, dir string, n int, when time.Time) {
	t.Helper()
	enc, _ := cache.Encode(action(n))
	h := cache.DigestOf(contents(n, 10_000)).Hash
	for _, p := range []string{filepath.Join(dir, "ac", enc.Key.Hash[:2], enc.Key.Hash), filepath.Join(dir, "cas", h[:2], h)} {
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

// worker stores and looks up actions 0..19 in the cache dir, in an order
// of its own, checking every hit; it returns the first thing wrong.
func worker(dir string, id int, max int64) error {
	c, err := local.Open(local.Options{Dir: dir, MaxSize: max, Warn: func(s string) {}})
	if err != nil {
		return err
	}
	ctx := context.Background()
	base, err := os.MkdirTemp("", "cache-worker-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	for round := 0; round < 3; round++ {
		for k := 0; k < 20; k++ {
			n := (k*7 + id*3 + round) % 20
			size := 2000 + n*100
			dst := filepath.Join(base, fmt.Sprintf("get-%d-%d-%d", round, k, n))
			r, err := c.Get(ctx, action(n), dst)
			if err != nil {
				return err
			}
			if r != nil {
				if err := check(r, dst, n, size); err != nil {
					return err
				}
				continue
			}
			src := filepath.Join(base, fmt.Sprintf("run-%d-%d-%d", round, k, n))
			if err := write(src, n, size); err != nil {
				return err
			}
			if err := c.Put(ctx, action(n), result(n), src); err != nil {
				return err
			}
		}
	}
	return c.Close()
}

// TestConcurrentGoroutines runs workers sharing one Cache and workers with
// a Cache each, on one directory bounded so that trims run meanwhile.
func TestConcurrentGoroutines(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for id := 0; id < 8; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := worker(dir, id, 30_000); err != nil {
				errs <- fmt.Errorf("worker %d: %v", id, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

const workerEnv = "SYCBUILD_CACHE_TEST_WORKER"

// TestConcurrentProcesses runs workers as separate processes (this test
// binary, re-run) on one cache directory.
func TestConcurrentProcesses(t *testing.T) {
	if v := os.Getenv(workerEnv); v != "" {
		dir, id, _ := strings.Cut(v, "|")
		n, _ := strconv.Atoi(id)
		if err := worker(dir, n, 30_000); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for id := 0; id < 4; id++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
		cmd.Env = append(os.Environ(), workerEnv+"="+dir+"|"+strconv.Itoa(id))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outs = append(outs, &out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("worker process %d: %v\n%s", i, err, outs[i])
		}
	}
	// Every entry left is whole.
	c := openCache(t, dir, 30_000, &warnings{})
	for n := 0; n < 20; n++ {
		dst := t.TempDir()
		if r, err := c.Get(context.Background(), action(n), dst); err != nil {
			t.Error(err)
		} else if r != nil {
			if err := check(r, dst, n, 2000+n*100); err != nil {
				t.Error(err)
			}
		}
	}
	if s, _ := c.Stats(); s.Bytes > 30_000 {
		t.Errorf("the cache holds %d bytes, bound 30000", s.Bytes)
	}
}

// TestOpenDefaultDir puts the cache under $XDG_CACHE_HOME.
func TestOpenDefaultDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	c, err := local.Open(local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(xdg, "sycbuild"); c.Dir() != want {
		t.Errorf("Dir = %s, want %s", c.Dir(), want)
	}
	if _, err := os.Stat(filepath.Join(xdg, "sycbuild", "CACHEDIR.TAG")); err != nil {
		t.Error(err)
	}
}

// TestStoreFailures: an output that cannot be read skips its action with
// a warning; a cache that cannot be written warns once and stores
// nothing more, while lookups go on.
func TestStoreFailures(t *testing.T) {
	var w warnings
	ctx := context.Background()
	dir, src := t.TempDir(), t.TempDir()
	c := openCache(t, dir, 0, &w)
	run(t, src, 1, 100)
	c.Put(ctx, action(1), result(1), src)
	if err := c.Put(ctx, action(2), result(2), src); err != nil { // outputs never written
		t.Fatal(err)
	}
	if ws := w.get(); len(ws) != 1 || !strings.Contains(ws[0], "2.bin") {
		t.Errorf("warnings = %q, want one naming the missing output", ws)
	}
	// The cache's temporary directory becomes a file: nothing can be written.
	os.RemoveAll(filepath.Join(dir, "tmp"))
	os.WriteFile(filepath.Join(dir, "tmp"), nil, 0o644)
	for n := 3; n < 6; n++ {
		run(t, src, n, 100)
		if err := c.Put(ctx, action(n), result(n), src); err != nil {
			t.Fatal(err)
		}
	}
	if ws := w.get(); len(ws) != 2 || !strings.Contains(ws[1], "storing nothing more") {
		t.Errorf("warnings = %q, want one more for the cache", ws)
	}
	dst := t.TempDir()
	r, err := c.Get(ctx, action(1), dst)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(r, dst, 1, 100); err != nil {
		t.Error(err)
	}
	if got := c.Counters(); got.Stored != 1 || got.LocalHits != 1 {
		t.Errorf("counters = %+v", got)
	}
}
