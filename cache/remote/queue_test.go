package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/cache"
)

// TestQueueFull fills the upload queue of a cache whose uploader is busy:
// the uploads that do not fit are dropped and counted, Put never blocks,
// and Close warns once with the count.
func TestQueueFull(t *testing.T) {
	var warnings []string
	c, err := Open(context.Background(), Options{URL: "grpc://127.0.0.1:1", Queue: 2, Timeout: time.Second,
		Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	// Nothing listens on port 1: the cache is off. Put it back on, as if
	// the server were busy, with no uploader taking from the queue (they
	// end when the queue is closed).
	c.off.Store(false)
	warnings = nil
	c.mu.Lock()
	c.closed = true
	close(c.queue)
	c.mu.Unlock()
	c.workers.Wait()
	c.closed = false
	c.queue = make(chan *upload, 2)
	a := &cache.Action{Argvs: [][]string{{"true"}}, Outputs: []string{"x"}}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), []byte("x"), 0o644)
	for range 5 {
		if err := c.Put(context.Background(), a, nil, dir); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Counters().Dropped; got != 3 {
		t.Errorf("dropped %d, want 3", got)
	}
	c.Close() // the two queued are dropped too: no uploader is left

	if len(warnings) != 1 || !strings.Contains(warnings[0], "5 results not uploaded") {
		t.Errorf("warnings = %q", warnings)
	}
}

// TestChangedOutput: an output that changed between Put and its upload is
// not read for the upload, small or large.
func TestChangedOutput(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{10, maxBatch} {
		name := filepath.Join(dir, "out")
		os.WriteFile(name, make([]byte, size), 0o644)
		fi, _ := os.Stat(name)
		st := stamp{fi.Size(), fi.ModTime()}
		if _, _, err := fileBlob(name, st); err != nil {
			t.Fatalf("unchanged output: %v", err)
		}
		os.WriteFile(name, make([]byte, size+1), 0o644)
		if _, _, err := fileBlob(name, st); err == nil || !strings.Contains(err.Error(), "changed since") {
			t.Errorf("changed %d-byte output: error %v", size, err)
		}
		os.Truncate(name, int64(size))
		os.Chtimes(name, time.Now(), st.mtime.Add(time.Second))
		if _, _, err := fileBlob(name, st); err == nil {
			t.Errorf("touched %d-byte output: no error", size)
		}
	}
}
