package irgen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestDeterministic(t *testing.T) {
	a, err := String(Small())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := String(Small())
	if a != b {
		t.Fatal("two runs differ")
	}
	c := Small()
	c.Seed = 2
	d, _ := String(c)
	if a == d {
		t.Fatal("the seed does not change the call graph")
	}
}

func TestShape(t *testing.T) {
	for _, typed := range []bool{false, true} {
		c := Small()
		c.Typed = typed
		s, err := String(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"spir_kernel void @" + KernelName(c.Kernels-1) + "(",
			"define linkonce_odr dso_local spir_func i32 @" + HelperName(c.Helpers-1) + "(",
			`"sycl-module-id"="` + SourceName(c.Sources-1) + `"`,
			"call spir_func i32 @" + SpecConstName + "(",
			"@" + "0 = private unnamed_addr",
			"!intel_reqd_sub_group_size !",
			"!reqd_work_group_size !",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("typed=%v: missing %q", typed, want)
			}
		}
		if got := strings.Contains(s, "ptr addrspace(1)"); got == typed {
			t.Errorf("typed=%v: opaque pointer syntax present=%v", typed, got)
		}
	}
}

func TestInvalidConfig(t *testing.T) {
	for _, c := range []Config{{}, {Kernels: 1, Helpers: 1, Sources: 1, SpecConsts: 2}, {Kernels: 1, Helpers: 1, Sources: 1, Body: -1}} {
		if err := Write(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// TestAcceptedByLLVM checks a small instance with the real assemblers:
// typed pointers with llvm-as-15, opaque pointers with llvm-as-19 (and 15).
func TestAcceptedByLLVM(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		typed bool
		tools []string
	}{
		{true, []string{"llvm-as-15"}},
		{false, []string{"llvm-as-19", "llvm-as-15"}},
	} {
		c := Small()
		c.Typed = tc.typed
		s, err := String(c)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "m.ll")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, tool := range tc.tools {
			as := testenv.Tool(t, tool)
			if out, err := exec.Command(as, "-o", os.DevNull, path).CombinedOutput(); err != nil {
				t.Errorf("typed=%v: %s rejects the module: %v\n%s", tc.typed, tool, err, out)
			}
		}
	}
}
