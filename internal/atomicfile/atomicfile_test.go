package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestWriteIntoSpecialFiles: a FIFO, a symlink and a character device are
// written into, as LLVM's tools do, never replaced by a regular file.
func TestWriteIntoSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) error {
		return Write(name, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// The reader opens the FIFO for reading and writing, so that neither
	// its open nor the writer's waits for the other.
	r, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := write(fifo, "through the pipe"); err != nil {
		t.Fatal(err)
	}
	r.SetReadDeadline(time.Now().Add(time.Second))
	b := make([]byte, 64)
	n, _ := r.Read(b)
	if s := string(b[:n]); s != "through the pipe" {
		t.Errorf("the FIFO's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("old contents, longer"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink("target", link)
	if err := write(link, "new"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != fs.ModeSymlink {
		t.Errorf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("the symlink's target holds %q", b)
	}

	// A character device like /dev/null, made here where this process may
	// make one (as root); elsewhere /dev/null itself, which only root
	// could replace.
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		null = os.DevNull
	}
	if err := write(null, "gone"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode().Type() != fs.ModeDevice|fs.ModeCharDevice {
		t.Errorf("the character device was replaced: %v %v", fi.Mode(), err)
	}
	assertOnly(t, dir, "fifo", "link", "null", "target")
}

// TestPlaceIntoSpecialFiles: Place renames a finished temporary file over
// a regular file, and copies it into a special one.
func TestPlaceIntoSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	place := func(name, text string) error {
		temp := TempName(name)
		os.WriteFile(temp, []byte(text), 0o644)
		return Place(temp, name)
	}
	regular := filepath.Join(dir, "regular")
	os.WriteFile(regular, []byte("old"), 0o644)
	if err := place(regular, "new"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(regular); string(b) != "new" {
		t.Errorf("regular file holds %q", b)
	}
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("cannot make a character device here:", err)
	}
	if err := place(null, "gone"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode().Type() != fs.ModeDevice|fs.ModeCharDevice {
		t.Errorf("the character device was replaced: %v %v", fi.Mode(), err)
	}
	assertOnly(t, dir, "null", "regular")
}
