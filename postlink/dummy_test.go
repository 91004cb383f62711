package postlink

import (
	"strings"
	"testing"
)

// TestDummyImage: a module of virtual functions that use an optional
// feature gets a dummy copy (the next ID) whose functions return at once
// and carry no aspects; one without such features gets none.
func TestDummyImage(t *testing.T) {
	src := `target triple = "spir64-unknown-unknown"

define spir_func i32 @vf(i32 %x) #0 !sycl_used_aspects !1 {
  %y = add i32 %x, 1
  ret i32 %y
}

define spir_func void @plain() #1 {
  ret void
}

attributes #0 = { "sycl-module-id"="v.cpp" "indirectly-callable"="fp64set" }
attributes #1 = { "sycl-module-id"="v.cpp" "indirectly-callable"="other" }

!1 = !{i32 6}
`
	dir := t.TempDir()
	if _, err := runTool(t, dir, src, "-split=auto", "-properties", "-S", "-o", "v.table"); err != nil {
		t.Fatal(err)
	}
	table := readFile(t, dir+"/v.table")
	if want := "[Code|Properties]\nv_0.ll|v_0.prop\nv_1.ll|v_1.prop\nv_2.ll|v_2.prop\n"; table != want {
		t.Fatalf("table:\n%s\nwant:\n%s", table, want)
	}
	var dummy, plain string
	for _, id := range []string{"0", "1", "2"} {
		ll := readFile(t, dir+"/v_"+id+".ll")
		prop := readFile(t, dir+"/v_"+id+".prop")
		switch {
		case strings.Contains(prop, "dummy-image=1|1"):
			dummy = ll
			if !strings.Contains(prop, "aspects=2|AAAAAAAAAAA\n") {
				t.Errorf("the dummy image has aspects:\n%s", prop)
			}
		case strings.Contains(ll, "@plain"):
			plain = ll
		}
	}
	if !strings.Contains(dummy, "define spir_func i32 @vf(i32 %x) #0 {\nentry:\n  ret i32 undef\n}\n") ||
		!strings.Contains(dummy, `attributes #0 = { "indirectly-callable"="fp64set" "sycl-entry-point" "sycl-module-id"="v.cpp" }`) ||
		strings.Contains(dummy, "!sycl_used_aspects") {
		t.Errorf("dummy image:\n%s", dummy)
	}
	if plain == "" || strings.Contains(plain, "entry:\n  ret void") {
		t.Errorf("the image without optional features:\n%s", plain)
	}
}
