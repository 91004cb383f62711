package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("define void @f() {\n  ret void\n}\n"), 5000)
	for _, tc := range []struct {
		name string
		data []byte
	}{{"module.ll", want}, {"empty.ll", nil}, {"one.ll", []byte("x")}} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Equal(got, tc.data) {
			t.Errorf("%s: got %d bytes, want %d", tc.name, len(got), len(tc.data))
		}
	}
	if _, err := Read(filepath.Join(dir, "missing.ll")); !os.IsNotExist(err) {
		t.Errorf("a missing file: got %v, want an error that it does not exist", err)
	}
	if _, err := Read(dir); err == nil {
		t.Errorf("a directory: no error")
	}
}

// A pipe is read, not mapped.
func TestReadPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write([]byte("from a pipe"))
		w.Close()
	}()
	defer r.Close()
	got, err := Read("/dev/fd/" + strconv.Itoa(int(r.Fd())))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "from a pipe" {
		t.Errorf("got %q", got)
	}
}
