package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/local"
	"github.com/sycbuild/sycbuild/tools/clopt"
)

// TestCacheCommand fills a cache, reads its stats and cleans it.
func TestCacheCommand(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	c, err := local.Open(local.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(src, "a.out"), bytes.Repeat([]byte("x"), 3000), 0o644)
	a := &cache.Action{Tools: []string{"t"}, Argvs: [][]string{{"t", "a.out"}}, Outputs: []string{"a.out"}}
	if err := c.Put(context.Background(), a, &cache.Result{}, src); err != nil {
		t.Fatal(err)
	}
	c.Close()

	sycbuild := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(append([]string{"sycbuild"}, args...), clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errs})
		return code, out.String(), errs.String()
	}
	code, out, errs := sycbuild("cache", "stats", "-cache-dir", dir, "-cache-max-size", "1M")
	if code != 0 || !strings.Contains(out, "entries    1\n") || !strings.Contains(out, "blobs      1\n") || !strings.Contains(out, "of 1.0 MiB") {
		t.Errorf("stats: %d\n%s%s", code, out, errs)
	}
	code, out, errs = sycbuild("cache", "clean", "-cache-dir", dir)
	if code != 0 || !strings.HasPrefix(out, "removed 1 entries and 1 blobs") {
		t.Errorf("clean: %d\n%s%s", code, out, errs)
	}
	if code, out, _ = sycbuild("cache", "stats", "-cache-dir", dir); code != 0 || !strings.Contains(out, "entries    0\n") {
		t.Errorf("stats after clean: %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"cache"}, {"cache", "purge"}, {"cache", "stats", "extra"}, {"cache", "stats", "-cache-max-size", "ten"}} {
		if code, _, _ := sycbuild(bad...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", bad, code, exitUsage)
		}
	}
}
