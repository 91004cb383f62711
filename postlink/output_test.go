package postlink

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestCreatePieces: a file written from pieces (more than one writev
// takes, some empty) holds their concatenation, and replaces a file
// that was there without writing through it.
func TestCreatePieces(t *testing.T) {
	var pieces [][]byte
	var want []byte
	for i := 0; i < 3*maxPieces+7; i++ {
		p := []byte(strconv.Itoa(i) + ",")
		if i%5 == 0 {
			p = nil
		}
		pieces = append(pieces, p)
		want = append(want, p...)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "m.ll")
	link := filepath.Join(dir, "link.ll")
	if err := os.WriteFile(name, []byte("old"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(name, link); err != nil {
		t.Fatal(err)
	}
	if err := create(name, pieces...); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("file holds %d bytes, want %d (the pieces' concatenation)", len(got), len(want))
	}
	if old, _ := os.ReadFile(link); string(old) != "old" {
		t.Errorf("the hard link holds %q, want the old bytes", old)
	}
	if err := create(filepath.Join(dir, "empty"), nil, []byte{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "empty")); err != nil || fi.Size() != 0 {
		t.Errorf("a file of empty pieces: %v, %v", fi, err)
	}
}
