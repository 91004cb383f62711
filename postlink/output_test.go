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

// TestModuleGroupsAfterFunctions: a split module is written as LLVM prints
// it even when the input defines an attribute group between functions
// (hand-written IR does): every group after the last function, the
// declaration of the other source's function before them.
func TestModuleGroupsAfterFunctions(t *testing.T) {
	const src = `target triple = "spir64-unknown-unknown"

define spir_func void @ext_a() #0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }

define spir_kernel void @kernel_b() #1 {
  call void @ext_a()
  ret void
}

attributes #1 = { "sycl-module-id"="b.cpp" }
`
	dir := t.TempDir()
	if out, err := runTool(t, dir, src, "-split=source", "-S", "-o", "m.table"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, name := range []string{"m_0.ll", "m_1.ll"} {
		ir := readFile(t, filepath.Join(dir, name))
		lastFn := max(bytes.LastIndex([]byte(ir), []byte("\ndefine ")), bytes.LastIndex([]byte(ir), []byte("\ndeclare ")))
		firstGroup := bytes.Index([]byte(ir), []byte("\nattributes #"))
		if lastFn < 0 || firstGroup < lastFn {
			t.Errorf("%s: an attribute group before a function:\n%s", name, ir)
		}
	}
}
