package upstream

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestNVPTXFromSYCLFrontEnd compiles the example's sources with clang-22's
// SYCL device front end for nvptx64-nvidia-cuda and builds them for an
// nvptx64 target with the real llc-22 and stand-ins for ptxas and
// fatbinary (the CUDA toolkit is not in Debian main): one module per
// kernel, the specialization constant emulated (no builtin call is left),
// and PTX for sm_90 with each module's kernel as its entry. The example's
// work-item id is a SPIR-V builtin that the PTX leaves undefined, so this
// PTX does not run on a GPU; examples/cuda's gpu-test.sh runs LLVM 22 IR
// that does.
func TestNVPTXFromSYCLFrontEnd(t *testing.T) {
	testenv.Tool(t, "llc-22")
	sycbuild := testenv.Sycbuild(t)
	dir := t.TempDir()
	for _, tu := range []string{"vector_ops", "image_ops"} {
		src, _ := filepath.Abs(filepath.Join("src", tu+".cpp"))
		tool(t, dir, "clang-22", "-cc1", "-triple", "nvptx64-nvidia-cuda", "-fsycl-is-device", "-std=c++17", "-O2", "-emit-llvm", src, "-o", tu+".ll")
	}
	fake := map[string]string{
		"fake/ptxas": "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'ptxas: stand-in'; exit 0; }\n" +
			"printf '\\177ELF\\002\\001' > \"$4\"\nhead -c 58 /dev/zero >> \"$4\"\ncat \"$2\" >> \"$4\"\n",
		"fake/fatbinary": "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'fatbinary: stand-in'; exit 0; }\n" +
			"out=${2#--create=}\nprintf '\\120\\355\\125\\272\\001\\000\\020\\000\\000\\000\\000\\000\\000\\000\\000\\000' > \"$out\"\n" +
			"for a in \"$3\" \"$4\"; do cat \"${a##*file=}\" >> \"$out\"; done\n",
		"targets.yaml": "inputs: [vector_ops.ll, image_ops.ll]\nsplit: per_kernel\ntools: {ptxas: ./fake/ptxas, fatbinary: ./fake/fatbinary}\n" +
			"targets:\n  - kind: nvptx64\n    arch: sm_90\n",
	}
	for name, data := range fake {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(sycbuild, "-config", filepath.Join(dir, "targets.yaml"), "-v").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "llvm-link-22 ") || !strings.Contains(string(out), "llc-22 -march=nvptx64 -mcpu=sm_90 ") {
		t.Errorf("the build does not link with llvm-link-22 and compile with llc-22:\n%s", out)
	}
	entry := regexp.MustCompile(`\.entry (\w+)\(`)
	var entries []string
	for i := 0; i < len(kernels); i++ {
		n := string(rune('0' + i))
		ll, _ := os.ReadFile(filepath.Join(dir, "out/nvptx64/module_"+n+".ll"))
		if strings.Contains(string(ll), "call noundef i32 @_Z37__sycl_getScalar2020SpecConstantValue") {
			t.Errorf("module_%s.ll still calls the spec-constant builtin", n)
		}
		ptx, _ := os.ReadFile(filepath.Join(dir, "out/nvptx64/module_"+n+".ptx"))
		m := entry.FindAllStringSubmatch(string(ptx), -1)
		if !strings.Contains(string(ptx), ".target sm_90") || len(m) != 1 {
			t.Errorf("module_%s.ptx: want PTX for sm_90 with one entry:\n%.400s", n, ptx)
			continue
		}
		entries = append(entries, m[0][1])
	}
	slices.Sort(entries)
	want := slices.Clone(kernels)
	slices.Sort(want)
	if !slices.Equal(entries, want) {
		t.Errorf("PTX entries %q, want %q", entries, want)
	}
}
