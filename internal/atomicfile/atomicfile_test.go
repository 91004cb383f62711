package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
