package remote_test

import (
	"context"
	"testing"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/remote"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// BenchmarkHit restores an action with a 5 MiB output (ByteStream) and
// small ones (inlined) from bazel-remote on loopback.
func BenchmarkHit(b *testing.B) {
	srv := testenv.StartBazelRemote(b)
	var w warnings
	ctx := context.Background()
	j := newJob(40, true)
	src := b.TempDir()
	j.write(b, src)
	c, err := remote.Open(ctx, remote.Options{URL: srv.URL, Warn: w.add})
	if err != nil {
		b.Fatal(err)
	}
	c.Put(ctx, j.a, &cache.Result{Output: j.text}, src)
	c.Close()
	c, err = remote.Open(ctx, remote.Options{URL: srv.URL, Warn: w.add})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	dst := b.TempDir()
	b.SetBytes(bigSize)
	for b.Loop() {
		if r, err := c.Get(ctx, j.a, dst); r == nil || err != nil {
			b.Fatalf("Get = %v, %v (warnings %q)", r, err, w.get())
		}
	}
}
