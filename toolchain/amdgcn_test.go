package toolchain

import (
	"slices"
	"testing"
)

func TestAMDGCNArgs(t *testing.T) {
	for _, c := range []struct {
		arch string
		want []string
	}{
		{"gfx90a", []string{"-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj", "m.ll", "-o", "m.o", "-O3"}},
		{"gfx90a:xnack+", []string{"-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-mattr=+xnack", "-filetype=obj", "m.ll", "-o", "m.o", "-O3"}},
		{"gfx942:sramecc+:xnack-", []string{"-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-mattr=+sramecc,-xnack", "-filetype=obj", "m.ll", "-o", "m.o", "-O3"}},
	} {
		if got := AMDGCNLLCArgs("m.ll", "m.o", c.arch, []string{"-O3"}); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.arch, got, c.want)
		}
	}
	want := []string{"-type=o", "-bundle-align=4096", "-targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+",
		"-input=/dev/null", "-input=m.hsaco", "-output=m.hipfb"}
	if got := BundlerArgs("m.hsaco", "m.hipfb", "gfx90a:xnack+", "x86_64-unknown-linux-gnu", nil); !slices.Equal(got, want) {
		t.Errorf("BundlerArgs: %q, want %q", got, want)
	}
}
