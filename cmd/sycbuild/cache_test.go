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
	"github.com/sycbuild/sycbuild/internal/clopt"
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

// TestCacheCommandOnlyOnACache: stats and clean touch only a directory
// that carries sycbuild's cache marker; a mistyped -cache-dir (a home
// directory with a tmp/ of its own) is refused and left as it was, and a
// directory that does not exist is not made.
func TestCacheCommandOnlyOnACache(t *testing.T) {
	sycbuild := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(append([]string{"sycbuild"}, args...), clopt.Stdio{In: strings.NewReader(""), Out: &out, Err: &errs})
		return code, out.String(), errs.String()
	}
	home := t.TempDir()
	for _, sub := range []string{"tmp", "cas", "ac"} {
		os.MkdirAll(filepath.Join(home, sub), 0o755)
		os.WriteFile(filepath.Join(home, sub, "mine.txt"), []byte("keep"), 0o644)
	}
	for _, verb := range []string{"clean", "stats"} {
		code, out, errs := sycbuild("cache", verb, "-cache-dir", home)
		if code != exitFailed || !strings.Contains(errs, "is not a sycbuild cache") {
			t.Errorf("%s of a directory without the marker: exit %d\n%s%s", verb, code, out, errs)
		}
	}
	for _, sub := range []string{"tmp", "cas", "ac"} {
		if b, err := os.ReadFile(filepath.Join(home, sub, "mine.txt")); string(b) != "keep" {
			t.Errorf("%s/mine.txt: %q %v", sub, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "CACHEDIR.TAG")); err == nil {
		t.Error("stats marked the directory as a cache")
	}
	missing := filepath.Join(home, "nothing", "here")
	for _, verb := range []string{"stats", "clean"} {
		if code, out, errs := sycbuild("cache", verb, "-cache-dir", missing); code != 0 || !strings.Contains(out, "no cache") {
			t.Errorf("%s of a missing directory: exit %d\n%s%s", verb, code, out, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "nothing")); err == nil {
		t.Error("a read of a missing cache made its directory")
	}
}
