package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestIsolateKernelsNames: each part of an isolation is named by its
// kernels as the .sym file lists them, one per line: a kernel whose name
// holds a space is one name, not two.
func TestIsolateKernelsNames(t *testing.T) {
	dir := t.TempDir()
	ir := `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @"my kernel"() #0 {
  ret void
}

define spir_kernel void @k2() #0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
`
	if err := os.WriteFile(filepath.Join(dir, "m.ll"), []byte(ir), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "iso"), 0o755)
	parts, err := isolateKernels(dir, "m.ll", "iso")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range parts {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if len(names) != 2 || names[0] != "k2" || names[1] != "my kernel" {
		t.Errorf("parts named %q, want \"my kernel\" and \"k2\"", names)
	}
}
