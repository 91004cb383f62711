package syclpostlink

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestRunInDir: Run, the build's way in, resolves the options' relative
// paths against its directory and leaves the process alone (working
// directory, memory limit); the files and the table are those the command
// writes when started in that directory, naming the files as given.
func TestRunInDir(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-split=kernel", "-symbols", "-properties", "-spec-const=native", "-S", "-o", "out/t.table", "device.ll"}
	project := func() string {
		dir := filepath.Join(t.TempDir(), "p")
		if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "device.ll"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	o, err := Parse("sycl-post-link", args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	const sentinel = 1 << 50
	old := debug.SetMemoryLimit(sentinel)
	defer debug.SetMemoryLimit(old)
	var stderr bytes.Buffer
	in := project()
	if rc := Run("sycl-post-link", in, o, nil, clopt.Stdio{In: strings.NewReader(""), Out: &stderr, Err: &stderr}); rc != 0 {
		t.Fatalf("Run: exit %d\n%s", rc, stderr.String())
	}
	if limit := debug.SetMemoryLimit(-1); limit != sentinel {
		t.Errorf("Run set the process's memory limit to %d", limit)
	}
	if now, _ := os.Getwd(); now != wd {
		t.Errorf("Run moved the process to %s", now)
	}

	cmd := project()
	t.Chdir(cmd)
	if rc := Main("sycl-post-link", args, clopt.Stdio{In: strings.NewReader(""), Out: &stderr, Err: &stderr}); rc != 0 {
		t.Fatalf("Main: exit %d\n%s", rc, stderr.String())
	}
	table, err := os.ReadFile(filepath.Join(in, "out", "t.table"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(table), "[Code|Properties|Symbols]\nout/t_0.ll|out/t_0.prop|out/t_0.sym\n") {
		t.Errorf("the table does not name the files as given:\n%s", table)
	}
	entries, err := os.ReadDir(filepath.Join(cmd, "out"))
	if err != nil || len(entries) < 4 {
		t.Fatalf("the command wrote %d files (%v)", len(entries), err)
	}
	for _, e := range entries {
		a, err1 := os.ReadFile(filepath.Join(in, "out", e.Name()))
		b, err2 := os.ReadFile(filepath.Join(cmd, "out", e.Name()))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("out/%s differs between Run in the directory and the command started there (%v, %v)", e.Name(), err1, err2)
		}
	}
}
