package syclpostlink

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// splitInto runs a per-kernel split of the quickstart module with its
// table at dir/out.table and returns the exit status and the messages.
func splitInto(t *testing.T, dir string) (int, string) {
	t.Helper()
	input := filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", "device.ll")
	args := []string{"-split=kernel", "-symbols", "-properties", "-S", "-o", filepath.Join(dir, "out.table"), input}
	var stderr bytes.Buffer
	code := Main("sycl-post-link", args, clopt.Stdio{In: strings.NewReader(""), Out: &stderr, Err: &stderr})
	return code, stderr.String()
}

// tableFiles returns every file the table names.
func tableFiles(t *testing.T, path string) []string {
	t.Helper()
	tb, err := filetable.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, col := range []string{"Code", "Properties", "Symbols"} {
		c, ok := tb.Column(col)
		if !ok {
			t.Fatalf("%s: no column %s", path, col)
		}
		files = append(files, c...)
	}
	return files
}

// The module files are written in place, but a file that was there is
// replaced, not written through: its other hard links keep their bytes.
func TestOutputsReplaceLinks(t *testing.T) {
	dir := t.TempDir()
	if code, msg := splitInto(t, dir); code != 0 {
		t.Fatalf("exit %d\n%s", code, msg)
	}
	files := tableFiles(t, filepath.Join(dir, "out.table"))
	want := map[string][]byte{}
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want[f] = b
		// Each output becomes a stale file hard-linked from elsewhere.
		if err := os.WriteFile(f, []byte("stale\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(f, filepath.Join(dir, "link"+itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	if code, msg := splitInto(t, dir); code != 0 {
		t.Fatalf("second run: exit %d\n%s", code, msg)
	}
	for i, f := range files {
		if got, _ := os.ReadFile(f); !bytes.Equal(got, want[f]) {
			t.Errorf("%s: not written again", f)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "link"+itoa(i))); string(got) != "stale\n" {
			t.Errorf("a hard link of %s was written through: %q", f, got)
		}
	}
}

// A run that fails after writing some files removes them, and leaves no
// table: the table of the run before went first, so no table names a file
// of a half-finished run.
func TestFailedRunLeavesNoTable(t *testing.T) {
	dir := t.TempDir()
	if code, msg := splitInto(t, dir); code != 0 {
		t.Fatalf("exit %d\n%s", code, msg)
	}
	files := tableFiles(t, filepath.Join(dir, "out.table"))
	if len(files) < 4 {
		t.Fatalf("want several files, the table names %v", files)
	}
	// The last module's symbol file cannot be replaced: a directory with
	// something in it stands in its place.
	blocked := files[len(files)-1]
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files[:len(files)-1] {
		os.Remove(f)
	}
	code, msg := splitInto(t, dir)
	if code == 0 {
		t.Fatalf("the run succeeded with a directory at %s", blocked)
	}
	if want := "error writing the file '" + blocked + "': is a directory"; !strings.Contains(msg, want) {
		t.Errorf("message lacks %q:\n%s", want, msg)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		if filepath.Join(dir, e.Name()) != blocked {
			left = append(left, e.Name())
		}
	}
	if len(left) > 0 {
		t.Errorf("the failed run left %v", left)
	}
	if fi, err := os.Stat(filepath.Join(blocked, "x")); err != nil || !fi.IsDir() {
		t.Errorf("the directory in the way was changed: %v", err)
	}
}

func itoa(i int) string { return string(rune('a' + i)) }
