package postlink

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbedAuxInfo: -embed-aux-info-as-metadata writes no .prop or .sym
// file; the module holds both, and the table only the Code column.
func TestEmbedAuxInfo(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

define spir_kernel void @"k\22q"() #0 {
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
`
	dir := t.TempDir()
	if _, err := runTool(t, dir, src, "-split=kernel", "-symbols", "-properties", "-embed-aux-info-as-metadata", "-S", "-o", "e.table"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir+"/e.table"); got != "[Code]\ne_0.ll\n" {
		t.Errorf("table %q", got)
	}
	ll := readFile(t, dir+"/e_0.ll")
	for _, want := range []string{
		"!sycl_properties = !{!1}\n!sycl_symbol_table = !{!2}\n",
		`!1 = !{!"[SYCL/devicelib req mask]\0ADeviceLibReqMask=1|0\0A[SYCL/device requirements]\0Aaspects=2|AAAAAAAAAAA\0A"}`,
		`!2 = !{!"k\22q\0A"}`,
	} {
		if !strings.Contains(ll, want) {
			t.Errorf("module lacks %q:\n%s", want, ll)
		}
	}
	if files, _ := filepath.Glob(dir + "/e_0.*"); len(files) != 1 {
		t.Errorf("files %v, want the module only", files)
	}
}
