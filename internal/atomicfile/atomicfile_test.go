package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	assertOnly(t, dir, "out.txt")
}

func TestFailureKeepsOldAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	os.WriteFile(name, []byte("old"), 0o644)
	boom := errors.New("boom")
	err := Write(name, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if err != boom {
		t.Fatalf("got %v, want the fill error as is", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("old file changed: %q", b)
	}
	assertOnly(t, dir, "out.txt")
}

func TestFileSystemErrorNamesTheFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "missing-dir", "out.txt")
	err := Write(name, func(io.Writer) error { return nil })
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, syscall.ENOENT) || !strings.HasPrefix(err.Error(), name+": ") {
		t.Fatalf("got %v", err)
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("directory holds %v, want %v", got, names)
	}
}

func TestTempNamesAreUnique(t *testing.T) {
	a, b := TempName("d/out.o"), TempName("d/out.o")
	if a == b || !strings.HasPrefix(a, "d/.out.o.tmp") {
		t.Errorf("TempName gave %q and %q", a, b)
	}
	if pid, ok := tempOwner(filepath.Base(a)); !ok || pid != os.Getpid() {
		t.Errorf("tempOwner(%q) = %d, %v", a, pid, ok)
	}
}

// TestRemoveStale: temporary files of processes that no longer run are
// removed; this process's, a running one's and other files are kept.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	dead := testenv.Run(t, "true").Process.Pid
	keep := []string{filepath.Base(TempName("mine")), ".a.tmp1-1", "b.tmp", ".c.tmpx-1", "plain"}
	for _, n := range append(keep, fmt.Sprintf(".d.o.tmp%d-3", dead)) {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	if n := RemoveStale(dir); n != 1 {
		t.Errorf("RemoveStale removed %d files, want 1", n)
	}
	slices.Sort(keep)
	assertOnly(t, dir, keep...)
}

func TestSync(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	os.WriteFile(name, []byte("x"), 0o644)
	if err := Sync(name); err != nil {
		t.Fatal(err)
	}
	if err := Sync(filepath.Join(dir, "missing")); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("Sync of a missing file: %v", err)
	}
}

func TestWriteOverDirectory(t *testing.T) {
	name := filepath.Join(t.TempDir(), "d")
	os.MkdirAll(filepath.Join(name, "sub"), 0o755)
	err := Write(name, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	if err == nil || err.Error() != name+": is a directory" {
		t.Errorf("got %v", err)
	}
	assertOnly(t, filepath.Dir(name), "d")
}
