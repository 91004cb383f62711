package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/local"
	"github.com/sycbuild/sycbuild/cache/remote"
	"github.com/sycbuild/sycbuild/internal/testenv"
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

// bigSize is over the batch limit: such an output goes through ByteStream.
const bigSize = 5<<20 + 123

// job is an action with its outputs' contents.
type job struct {
	a       *cache.Action
	outputs map[string][]byte
	text    []byte
}

// newJob returns the action number n: a small output, an executable one
// and, if big, one that goes through ByteStream.
func newJob(n int, big bool) *job {
	j := &job{
		a: &cache.Action{
			Tools:  []string{"ocloc 25.1"},
			Argvs:  [][]string{{"ocloc", "compile", "-file", fmt.Sprintf("in/%d.spv", n), "-output", fmt.Sprintf("out/%d", n)}},
			Inputs: []cache.Input{{Path: fmt.Sprintf("in/%d.spv", n), Hash: strings.Repeat(fmt.Sprintf("%x", n%16), 64), Size: int64(n)}},
		},
		outputs: map[string][]byte{
			fmt.Sprintf("out/%d/small.bin", n): []byte(fmt.Sprintf("small output of job %d\n", n)),
			fmt.Sprintf("out/%d/tool", n):      []byte("#!/bin/sh\n"),
			fmt.Sprintf("out/%d/empty", n):     {},
		},
		text: []byte(fmt.Sprintf("job %d: 1 warning\n", n)),
	}
	if big {
		b := make([]byte, bigSize)
		var seed [32]byte
		seed[0] = byte(n)
		rand.NewChaCha8(seed).Read(b)
		j.outputs[fmt.Sprintf("out/%d/big.bin", n)] = b
	}
	for p := range j.outputs {
		j.a.Outputs = append(j.a.Outputs, p)
	}
	return j
}

// write writes j's outputs under dir, as running it would.
func (j *job) write(t testing.TB, dir string) {
	t.Helper()
	for p, data := range j.outputs {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, "/tool") {
			mode = 0o755
		}
		if err := os.WriteFile(full, data, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(full, mode)
	}
}

// check checks that a hit wrote j's outputs under dir.
func (j *job) check(t *testing.T, r *cache.Result, dir string) {
	t.Helper()
	if r == nil {
		t.Fatalf("miss, want a hit")
	}
	if !bytes.Equal(r.Output, j.text) {
		t.Errorf("output text %q, want %q", r.Output, j.text)
	}
	for p, want := range j.outputs {
		full := filepath.Join(dir, p)
		got, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from the %d stored", p, len(got), len(want))
		}
		fi, _ := os.Stat(full)
		if exec := fi.Mode()&0o100 != 0; exec != strings.HasSuffix(p, "/tool") {
			t.Errorf("%s: mode %v", p, fi.Mode())
		}
	}
}

func open(t *testing.T, url string, w *warnings, ro bool) *remote.Cache {
	t.Helper()
	c, err := remote.Open(context.Background(), remote.Options{URL: url, Warn: w.add, ReadOnly: ro, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// storeFiles returns the regular files of the server's store.
func storeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// noOutputs checks that a miss wrote no file under dir (the directories
// of the outputs may have been made).
func noOutputs(t *testing.T, dir string) {
	t.Helper()
	if files := storeFiles(t, dir); len(files) > 0 {
		t.Errorf("a miss left files: %q", files)
	}
}

// TestHitMissTwoCheckouts stores an action from one checkout and finds it
// from another in a different directory; a changed input misses. Small
// outputs go in batches, the 5 MiB one through ByteStream, both ways.
func TestHitMissTwoCheckouts(t *testing.T) {
	srv := testenv.StartBazelRemote(t)
	var w warnings
	ctx := context.Background()
	j := newJob(1, true)
	one, two := t.TempDir(), t.TempDir()

	c := open(t, srv.URL, &w, false)
	if r, err := c.Get(ctx, j.a, one); r != nil || err != nil {
		t.Fatalf("Get on an empty server = %v, %v", r, err)
	}
	j.write(t, one)
	if err := c.Put(ctx, j.a, &cache.Result{Output: j.text}, one); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got := c.Counters(); got.Uploads != 1 || got.Misses != 1 || got.Dropped != 0 {
		t.Errorf("counters after the upload = %+v", got)
	}

	c = open(t, srv.URL, &w, false)
	defer c.Close()
	r, err := c.Get(ctx, j.a, two)
	if err != nil {
		t.Fatal(err)
	}
	j.check(t, r, two)
	if r.Source != cache.Remote {
		t.Errorf("Source = %v", r.Source)
	}
	changed := newJob(1, true)
	changed.a.Inputs[0].Size++
	three := t.TempDir()
	if r, err := c.Get(ctx, changed.a, three); r != nil || err != nil {
		t.Errorf("Get with a changed input = %v, %v", r, err)
	}
	noOutputs(t, three)
	if got := c.Counters(); got.RemoteHits != 1 || got.Misses != 1 {
		t.Errorf("counters = %+v", got)
	}
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
	log := srv.Log()
	for _, want := range []string{"GRPC BYTESTREAM WRITE", "GRPC BYTESTREAM READ", "GRPC CAS PUT", "GRPC AC PUT"} {
		if !strings.Contains(log, want) {
			t.Errorf("the server's log has no %q:\n%s", want, log)
		}
	}
}

// corrupt flips a byte in the server's copy of data.
func corrupt(t *testing.T, storeDir string, data []byte) {
	t.Helper()
	h := cache.DigestOf(data).Hash
	for _, p := range storeFiles(t, storeDir) {
		if strings.Contains(filepath.Base(p), h) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(b, data[:min(len(data), 64)])
			if i < 0 {
				t.Fatalf("%s does not hold the blob's bytes (compressed?)", p)
			}
			b[i+len(data)/2] ^= 0x55
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no file of blob %s in %s", h, storeDir)
}

// TestCorruptedBlob corrupts the server's files of a small and of a large
// output: each lookup is a miss with a warning, and no output is written.
// The cache stays on: an intact entry still hits.
func TestCorruptedBlob(t *testing.T) {
	srv := testenv.StartBazelRemote(t, "--storage_mode", "uncompressed")
	var w warnings
	ctx := context.Background()
	small, big, intact := newJob(2, false), newJob(3, true), newJob(4, false)
	src := t.TempDir()
	c := open(t, srv.URL, &w, false)
	for _, j := range []*job{small, big, intact} {
		j.write(t, src)
		c.Put(ctx, j.a, &cache.Result{Output: j.text}, src)
	}
	c.Close()
	corrupt(t, srv.Dir, small.outputs["out/2/small.bin"])
	corrupt(t, srv.Dir, big.outputs["out/3/big.bin"])

	c = open(t, srv.URL, &w, false)
	defer c.Close()
	for _, j := range []*job{small, big} {
		dst := t.TempDir()
		r, err := c.Get(ctx, j.a, dst)
		if r != nil || err != nil {
			t.Errorf("Get of a corrupted entry = %v, %v", r, err)
		}
		noOutputs(t, dst)
	}
	ws := w.get()
	if len(ws) != 2 || !strings.Contains(ws[0], "does not match its digest") || !strings.Contains(ws[1], "does not match its digest") {
		t.Errorf("warnings = %q, want one per corrupted entry", ws)
	}
	dst := t.TempDir()
	r, err := c.Get(ctx, intact.a, dst)
	if err != nil {
		t.Fatal(err)
	}
	intact.check(t, r, dst)
}

// TestServerKilled kills the server while a build uses a tiered cache:
// the remote gives one warning and goes off, lookups miss at once, stores
// do nothing remotely, and the local cache goes on working.
func TestServerKilled(t *testing.T) {
	srv := testenv.StartBazelRemote(t)
	var w warnings
	ctx := context.Background()
	j1, j2, j3 := newJob(5, false), newJob(6, false), newJob(7, false)
	src := t.TempDir()
	seed := open(t, srv.URL, &w, false)
	j1.write(t, src)
	seed.Put(ctx, j1.a, &cache.Result{Output: j1.text}, src)
	seed.Close()

	lc, err := local.Open(local.Options{Dir: t.TempDir(), Warn: w.add})
	if err != nil {
		t.Fatal(err)
	}
	rc := open(t, srv.URL, &w, false)
	tc := cache.Tiered(lc, rc)
	build := t.TempDir()
	r, err := tc.Get(ctx, j1.a, build)
	if err != nil {
		t.Fatal(err)
	}
	j1.check(t, r, build)

	srv.Stop()
	j2.write(t, build)
	if err := tc.Put(ctx, j2.a, &cache.Result{Output: j2.text}, build); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if r, err := tc.Get(ctx, j3.a, t.TempDir()); r != nil || err != nil {
			t.Fatalf("Get after the kill = %v, %v", r, err)
		}
	}
	// j2 was stored locally; j1 was filled into the local cache by its
	// remote hit.
	for _, j := range []*job{j1, j2} {
		dst := t.TempDir()
		r, err := tc.Get(ctx, j.a, dst)
		if err != nil {
			t.Fatal(err)
		}
		j.check(t, r, dst)
		if r.Source != cache.Local {
			t.Errorf("Source = %v, want local", r.Source)
		}
	}
	if !rc.Off() {
		t.Errorf("the remote cache is still on")
	}
	start := time.Now()
	if err := tc.Close(); err != nil {
		t.Fatal(err)
	}
	ws := w.get()
	if len(ws) != 1 || !strings.Contains(ws[0], "continuing without it") {
		t.Errorf("warnings = %q, want one", ws)
	}
	got := tc.(cache.Counted).Counters()
	if got.RemoteHits != 1 || got.LocalHits != 2 || got.Misses != 3 || got.Uploads != 0 {
		t.Errorf("counters = %+v", got)
	}
	t.Logf("Close after the kill took %v", time.Since(start))
}

// TestServerDownAtStart opens a cache on a port nobody listens on, and
// one on a server that accepts connections and never answers: each is
// off after one warning.
func TestServerDownAtStart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	dead.Close()

	for _, addr := range []string{deadAddr, l.Addr().String()} {
		var w warnings
		c, err := remote.Open(context.Background(), remote.Options{URL: "grpc://" + addr, Warn: w.add, Timeout: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		j := newJob(8, false)
		dir := t.TempDir()
		if r, err := c.Get(context.Background(), j.a, dir); r != nil || err != nil {
			t.Errorf("%s: Get = %v, %v", addr, r, err)
		}
		j.write(t, dir)
		c.Put(context.Background(), j.a, nil, dir)
		c.Close()
		if ws := w.get(); len(ws) != 1 || !c.Off() {
			t.Errorf("%s: warnings %q, off %v; want one warning and off", addr, ws, c.Off())
		}
	}
}

// TestReadOnly stores nothing on the server, and still finds what a
// writable cache stored.
func TestReadOnly(t *testing.T) {
	srv := testenv.StartBazelRemote(t)
	var w warnings
	ctx := context.Background()
	src := t.TempDir()
	ro := open(t, srv.URL, &w, true)
	for n := 10; n < 13; n++ {
		j := newJob(n, n == 10)
		j.write(t, src)
		if err := ro.Put(ctx, j.a, &cache.Result{Output: j.text}, src); err != nil {
			t.Fatal(err)
		}
	}
	ro.Close()
	if files := storeFiles(t, srv.Dir); len(files) > 0 {
		t.Fatalf("a read-only cache wrote %d files to the server: %q", len(files), files)
	}
	j := newJob(10, true)
	rw := open(t, srv.URL, &w, false)
	rw.Put(ctx, j.a, &cache.Result{Output: j.text}, src)
	rw.Close()
	ro = open(t, srv.URL, &w, true)
	defer ro.Close()
	dst := t.TempDir()
	r, err := ro.Get(ctx, j.a, dst)
	if err != nil {
		t.Fatal(err)
	}
	j.check(t, r, dst)
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
}

// TestConcurrentUsers has several clients store and look up overlapping
// actions at once, and checks every hit's outputs.
func TestConcurrentUsers(t *testing.T) {
	srv := testenv.StartBazelRemote(t)
	var w warnings
	ctx := context.Background()
	const users, jobs = 4, 12
	all := make([]*job, jobs)
	for n := range all {
		all[n] = newJob(100+n, n%6 == 0)
	}
	var wg sync.WaitGroup
	for u := 0; u < users; u++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := open(t, srv.URL, &w, false)
			defer c.Close()
			src := t.TempDir()
			for k := range jobs {
				j := all[(k+u*3)%jobs]
				dst := t.TempDir()
				r, err := c.Get(ctx, j.a, dst)
				if err != nil {
					t.Error(err)
					return
				}
				if r != nil {
					j.check(t, r, dst)
					continue
				}
				j.write(t, src)
				if err := c.Put(ctx, j.a, &cache.Result{Output: j.text}, src); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	c := open(t, srv.URL, &w, false)
	defer c.Close()
	for _, j := range all {
		dst := t.TempDir()
		r, err := c.Get(ctx, j.a, dst)
		if err != nil {
			t.Fatal(err)
		}
		j.check(t, r, dst)
	}
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
}

// TestBadOptions checks that only bad options are errors.
func TestBadOptions(t *testing.T) {
	for _, o := range []remote.Options{
		{URL: "http://localhost:8080"},
		{URL: "grpc://localhost"},
		{URL: "localhost:9092"},
		{URL: "grpc://localhost:9092", Headers: []string{"no separator"}},
		{URL: "grpc://localhost:9092", Headers: []string{" : no name"}},
		{URL: "grpc://localhost:9092", CACert: "ca.pem"},
	} {
		if c, err := remote.Open(context.Background(), o); err == nil {
			c.Close()
			t.Errorf("Open(%+v) did not fail", o)
		}
	}
}

// TestServerStalls stops the server's process in the middle of a build:
// it keeps its connections and answers nothing. The first lookup ends at
// the timeout and turns the cache off with one warning; the next ones miss
// at once; Close gives up on the queued uploads after the timeout.
func TestServerStalls(t *testing.T) {
	srv := testenv.StartBazelRemote(t)
	var w warnings
	ctx := context.Background()
	c, err := remote.Open(ctx, remote.Options{URL: srv.URL, Warn: w.add, Timeout: time.Second, Uploads: 1})
	if err != nil {
		t.Fatal(err)
	}
	j := newJob(30, false)
	if r, _ := c.Get(ctx, j.a, t.TempDir()); r != nil {
		t.Fatal("hit on an empty server")
	}
	if err := srv.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer srv.Signal(syscall.SIGCONT)
	src := t.TempDir()
	for n := 31; n < 35; n++ {
		j := newJob(n, false)
		j.write(t, src)
		c.Put(ctx, j.a, &cache.Result{Output: j.text}, src)
	}
	for i := 0; i < 3; i++ {
		if r, err := c.Get(ctx, j.a, t.TempDir()); r != nil || err != nil {
			t.Fatalf("Get from a stalled server = %v, %v", r, err)
		}
	}
	start := time.Now()
	c.Close()
	t.Logf("Close took %v", time.Since(start))
	if ws := w.get(); len(ws) != 1 || !c.Off() || !strings.Contains(ws[0], "DeadlineExceeded") {
		t.Errorf("warnings %q, off %v; want one warning (deadline exceeded) and off", ws, c.Off())
	}
	if got := c.Counters(); got.Uploads != 0 || got.Dropped != 4 || got.Misses != 4 {
		t.Errorf("counters = %+v", got)
	}
}
