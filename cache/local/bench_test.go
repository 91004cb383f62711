package local_test

import (
	"context"
	"testing"
)

// BenchmarkHit restores an action with a 4 MiB output and a small one.
func BenchmarkHit(b *testing.B) {
	c := openCache(b, b.TempDir(), 0, &warnings{})
	src := b.TempDir()
	run(b, src, 1, 4<<20)
	ctx := context.Background()
	if err := c.Put(ctx, action(1), result(1), src); err != nil {
		b.Fatal(err)
	}
	dst := b.TempDir()
	b.SetBytes(4 << 20)
	for b.Loop() {
		if r, err := c.Get(ctx, action(1), dst); r == nil || err != nil {
			b.Fatalf("Get = %v, %v", r, err)
		}
	}
}
