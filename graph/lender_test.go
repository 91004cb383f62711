package graph

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/jobs"
)

// TestInProcessBorrowsTokens: an in-process tool's extra workers take
// tokens from the build's pool, so -j 3 is three jobs in all: the action
// holds one, it can borrow the other two and no more, and what it does
// not give back returns to the pool when it ends.
func TestInProcessBorrowsTokens(t *testing.T) {
	dir := t.TempDir()
	pool := jobs.NewPool(3)
	g := New()
	var borrowed, refusedAfter int
	g.Add(&Action{Desc: "split", Tool: shTool, Argv: []string{"sycbuild", "split"}, Out: []*Node{g.File("out", Plain)},
		Main: func(env Env, _ []string, _ Stdio) int {
			for env.Tokens.TryAcquire() {
				borrowed++
			}
			env.Tokens.Release()
			if env.Tokens.TryAcquire() {
				refusedAfter = borrowed // one given back can be taken again
			}
			os.WriteFile(filepath.Join(dir, "out"), []byte("x"), 0o644)
			return 0 // leaves two borrowed
		}})
	if _, err := g.Build(context.Background(), Options{Pool: pool, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if borrowed != 2 || refusedAfter != 2 {
		t.Errorf("borrowed %d tokens of a pool of 3 (one held by the action), re-borrowed after release: %v", borrowed, refusedAfter == 2)
	}
	for i := range 3 {
		if _, ok := pool.TryAcquire(); !ok {
			t.Fatalf("token %d of 3 was not returned to the pool", i+1)
		}
	}
}
