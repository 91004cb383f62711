package graph

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// memCache is a cache.Cache in memory, keyed by everything in the action.
type memCache struct {
	mu      sync.Mutex
	entries map[string]map[string][]byte // key → output → contents
	texts   map[string][]byte
	gets    int
}

func newMemCache() *memCache {
	return &memCache{entries: map[string]map[string][]byte{}, texts: map[string][]byte{}}
}

func memKey(a *cache.Action) string {
	var b strings.Builder
	for _, t := range a.Tools {
		b.WriteString(t + "\x00")
	}
	for _, argv := range a.Argvs {
		b.WriteString(strings.Join(argv, "\x01") + "\x00")
	}
	for _, in := range a.Inputs {
		b.WriteString(in.Path + "=" + in.Hash + "\x00")
	}
	return b.String()
}

func (m *memCache) Get(_ context.Context, a *cache.Action, dir string) (*cache.Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	outs, ok := m.entries[memKey(a)]
	if !ok {
		return nil, nil
	}
	for name, data := range outs {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	return &cache.Result{Output: m.texts[memKey(a)], Source: cache.Remote}, nil
}

func (m *memCache) Put(_ context.Context, a *cache.Action, r *cache.Result, dir string) error {
	outs := map[string][]byte{}
	for _, o := range a.Outputs {
		data, err := os.ReadFile(filepath.Join(dir, o))
		if err != nil {
			return err
		}
		outs[o] = data
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[memKey(a)] = outs
	m.texts[memKey(a)] = r.Output
	return nil
}

func (m *memCache) Close() error { return nil }

// TestCacheSharedByDirectories: a build in a second directory with the
// same inputs restores every external action and fan-out job from the
// shared cache, runs none, and produces the same files; -explain says so.
func TestCacheSharedByDirectories(t *testing.T) {
	c := newMemCache()
	var results []*Result
	var logs []string
	var all []string
	for range 2 {
		tb, _ := fanoutBuild(t, "src/m0.txt", "src/m1.txt")
		opt := tb.opts()
		opt.Cache, opt.RemoteCache = c, true
		results = append(results, tb.build(opt))
		logs = append(logs, tb.log.String())
		all = append(all, tb.read("all.txt"))
	}
	first, second := results[0], results[1]
	if first.Ran != 2 || first.JobsRan != 2 || first.LocalHits+first.RemoteHits != 0 {
		t.Errorf("first build: %+v", first)
	}
	if second.Ran != 1 || second.JobsRan != 0 || second.RemoteHits != 3 {
		t.Errorf("second build: %+v\n%s", second, logs[1])
	}
	if all[0] != all[1] {
		t.Errorf("the restored build's output differs: %q, %q", all[0], all[1])
	}
	for _, want := range []string{"out/mod_0.up: remote miss", "all.txt: remote miss"} {
		if !strings.Contains(logs[0], "sycbuild explain: "+want) {
			t.Errorf("first build's -explain lacks %q:\n%s", want, logs[0])
		}
	}
	for _, want := range []string{"out/mod_1.up: remote hit", "all.txt: remote hit"} {
		if !strings.Contains(logs[1], "sycbuild explain: "+want) {
			t.Errorf("second build's -explain lacks %q:\n%s", want, logs[1])
		}
	}
}

// TestCacheSkipsAbsolutePaths: an action reading a file by its absolute
// path is never looked up (its key would hold where the project lives).
func TestCacheSkipsAbsolutePaths(t *testing.T) {
	c := newMemCache()
	tb := newTestBuild(t)
	tb.runner = &jobstest.Runner{}
	tb.write("in.txt", "x")
	in := filepath.Join(tb.dir, "in.txt")
	tb.fake("copy", catTool, []string{in}, "out.txt")
	opt := tb.opts()
	opt.Cache = c
	if res := tb.build(opt); res.Ran != 1 || c.gets != 0 || len(c.entries) != 0 || tb.read("out.txt") != "x" {
		t.Errorf("ran %d, %d lookups, %d entries, out.txt %q", res.Ran, c.gets, len(c.entries), tb.read("out.txt"))
	}
}

// TestRestoredOutputsChecked: outputs restored from the cache pass the
// checks a command's outputs pass (not empty, the tool's Check). An entry
// whose outputs fail them (any client of a shared cache can store one) is
// a miss with a warning: the command runs, and its output replaces the
// entry.
func TestRestoredOutputsChecked(t *testing.T) {
	tool := &Tool{Name: "sh", Path: "sh", Version: "test", Check: func(head []byte, _ int64, _ io.ReaderAt) error {
		if !strings.HasPrefix(string(head), "IMG") {
			return errors.New("no IMG magic")
		}
		return nil
	}}
	c := newMemCache()
	build := func() (*testBuild, *Result) {
		tb := newTestBuild(t)
		tb.write("in.txt", "x")
		tb.g.Add(&Action{Desc: "compile", Tool: tool, Argv: []string{"sh", "-c", `echo IMG > "$2"`, "sh", "in.txt", "img.bin"},
			In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("img.bin", Plain)}})
		opt := tb.opts()
		opt.Cache, opt.RemoteCache = c, true
		return tb, tb.build(opt)
	}
	if _, res := build(); res.Ran != 1 {
		t.Fatalf("first build: %+v", res)
	}
	for _, bad := range []string{"garbage\n", ""} {
		c.mu.Lock()
		for _, outs := range c.entries {
			outs["img.bin"] = []byte(bad)
		}
		c.mu.Unlock()
		tb, res := build()
		if res.Ran != 1 || res.RemoteHits != 0 || tb.read("img.bin") != "IMG\n" {
			t.Errorf("%q restored: %+v, img.bin %q\n%s", bad, res, tb.read("img.bin"), tb.log.String())
		}
		if n := strings.Count(tb.log.String(), "sycbuild: warning: cache: compile: restored img.bin"); n != 1 {
			t.Errorf("%q restored: %d warnings\n%s", bad, n, tb.log.String())
		}
		c.mu.Lock()
		for _, outs := range c.entries {
			if string(outs["img.bin"]) != "IMG\n" {
				t.Errorf("the bad entry was not replaced: %q", outs["img.bin"])
			}
		}
		c.mu.Unlock()
	}
}

// TestReplayedTextEscaped: what a command printed, replayed from the
// cache, is printed with its control characters escaped (a shared cache's
// entry may hold terminal escape sequences); line breaks and tabs stay.
func TestReplayedTextEscaped(t *testing.T) {
	c := newMemCache()
	build := func(script string) *testBuild {
		tb := newTestBuild(t)
		tb.write("in.txt", "x")
		tb.g.Add(&Action{Desc: "compile", Tool: shTool, Argv: []string{"sh", "-c", script, "sh", "in.txt", "img.bin"},
			In: []*Node{tb.g.File("in.txt", Plain)}, Out: []*Node{tb.g.File("img.bin", Plain)}})
		opt := tb.opts()
		opt.Cache, opt.RemoteCache = c, true
		tb.build(opt)
		return tb
	}
	build(`echo warning: careful; echo IMG > "$2"`)
	c.mu.Lock()
	for k := range c.texts {
		c.texts[k] = []byte("warning:\tcareful\x1b]0;owned\x07\r\x00\n")
	}
	c.mu.Unlock()
	tb := build(`echo warning: careful; echo IMG > "$2"`)
	log := tb.log.String()
	if !strings.Contains(log, `warning:	careful\x1b]0;owned\x07\x0d\x00`+"\n") || strings.ContainsAny(log, "\x1b\x07\r\x00") {
		t.Errorf("replayed text not escaped:\n%q", log)
	}
}
