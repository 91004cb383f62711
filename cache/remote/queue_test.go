package remote

import (
	"context"
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
	for range 5 {
		if err := c.Put(context.Background(), a, nil, t.TempDir()); err != nil {
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
