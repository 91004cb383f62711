package toolchain

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/configs"
)

func itoa(i int) string { return strconv.Itoa(i) }

// fakeTool writes an executable script into dir.
func fakeTool(t *testing.T, dir, name, script string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFind(t *testing.T) {
	bin := t.TempDir()
	runs := filepath.Join(t.TempDir(), "runs")
	fakeTool(t, bin, "llvm-spirv-15", `echo run >> `+runs+`; echo "Debian LLVM version 15.0.6"`)
	fakeTool(t, bin, "llvm-as", `echo "LLVM version 14.0.6"`)
	fakeTool(t, bin, "llc", `echo "Ubuntu LLVM version 19.1.1"`)
	fakeTool(t, bin, "ocloc", `[ "$1 $2" = "query OCL_DRIVER_VERSION" ] && printf '22.43.24595 ' > OCL_DRIVER_VERSION`)
	fakeTool(t, bin, "spirv-val", `exit 1`) // no version: identified by its hash
	t.Setenv("PATH", bin)
	t.Setenv("CUDA_PATH", filepath.Join(bin, "cuda"))
	cacheFile := filepath.Join(t.TempDir(), "tools")
	f := &Finder{Versions: LoadVersionCache(cacheFile), Configured: map[configs.Tool]string{"ptxas": "./no/ptxas"}}

	tests := []struct {
		role    configs.Tool
		llvm    int
		path    string
		version string
		err     string
	}{
		{"llvm-spirv", 15, "llvm-spirv-15", "Debian LLVM version 15.0.6", ""},
		{"llc", 19, "llc", "Ubuntu LLVM version 19.1.1", ""},
		{"ocloc", 0, "ocloc", "ocloc driver 22.43.24595", ""},
		{"llvm-as", 15, "", "", "llvm-as was not found (looked for llvm-as-15 on PATH, llvm-as on PATH (" + bin + "/llvm-as is not LLVM 15)); install the Debian package llvm-15"},
		{"llvm-link", 19, "", "", "llvm-link was not found (looked for llvm-link-19 on PATH, llvm-link on PATH); install the Debian package llvm-19"},
		{"fatbinary", 0, "", "", "fatbinary was not found (looked for fatbinary on PATH, " + bin + "/cuda/bin/fatbinary, /usr/local/cuda/bin/fatbinary); install NVIDIA's CUDA toolkit (Debian: nvidia-cuda-toolkit, in non-free), or name it under tools:"},
		{"ptxas", 0, "", "", "tools.ptxas: ./no/ptxas: no such file"},
	}
	for _, tt := range tests {
		tool, err := f.Find(tt.role, tt.llvm)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Find(%s) error:\n got %v\nwant %s", tt.role, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Find(%s): %v", tt.role, err)
			continue
		}
		if tool.Path != tt.path || !strings.HasPrefix(tool.Version, tt.version+"; sha256:") {
			t.Errorf("Find(%s) = %+v", tt.role, tool)
		}
	}
	var nf *NotFoundError
	if _, err := f.Find("ocloc-x", 0); err == nil || errors.As(err, &nf) {
		t.Errorf("unknown role: %v", err)
	}
	sv, err := f.Find("spirv-val", 0)
	if err != nil || !strings.HasPrefix(sv.Version, "sha256:") {
		t.Errorf("spirv-val without a version: %+v %v", sv, err)
	}
	if err := f.Versions.Save(); err != nil {
		t.Fatal(err)
	}

	// A second finder reads the cache: no --version runs again, until the
	// tool changes.
	f2 := &Finder{Versions: LoadVersionCache(cacheFile)}
	f2.Find("llvm-spirv", 15)
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "run") != 1 {
		t.Errorf("llvm-spirv-15 --version ran %d times", strings.Count(string(b), "run"))
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(bin, "llvm-spirv-15"), later, later)
	f2.Find("llvm-spirv", 15)
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "run") != 2 {
		t.Errorf("after an update, --version ran %d times in all", strings.Count(string(b), "run"))
	}

	// Configured tools: a name on PATH, or a path.
	f3 := &Finder{Versions: LoadVersionCache(""), Configured: map[configs.Tool]string{"llvm-spirv": bin + "/llvm-spirv-15", "llc": "llvm-spirv-15"}}
	if tool, err := f3.Find("llvm-spirv", 15); err != nil || tool.Path != bin+"/llvm-spirv-15" {
		t.Errorf("configured path: %+v %v", tool, err)
	}
	if tool, err := f3.Find("llc", 19); err != nil || tool.Path != "llvm-spirv-15" {
		t.Errorf("configured name: %+v %v", tool, err)
	}
}

func TestLLVMMajor(t *testing.T) {
	for in, want := range map[string]int{
		"Debian LLVM version 15.0.6 Optimized build.":  15,
		"LLVM (http://llvm.org/): LLVM version 19.1.7": 19,
		"SPIRV-Tools v2023.1":                          0,
	} {
		if got := llvmMajor(in); got != want {
			t.Errorf("llvmMajor(%q) = %d", in, got)
		}
	}
}

// TestVersionHoldsContent: a tool's identity holds the digest of its
// executable, and of a script's interpreter: a wrapper script that changes
// what it does while printing the same --version, or whose interpreter
// changes, is another tool.
func TestVersionHoldsContent(t *testing.T) {
	dir := t.TempDir()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	interp := filepath.Join(dir, "mysh")
	os.WriteFile(interp, data, 0o755)
	tool := filepath.Join(dir, "wrapper")
	os.WriteFile(tool, []byte("#!"+interp+"\necho 'wrapper version 1.0'\n"), 0o755)
	c := LoadVersionCache(filepath.Join(dir, "versions"))
	v1, err := c.Version("llc", tool)
	if err != nil || !strings.HasPrefix(v1, "wrapper version 1.0; sha256:") {
		t.Fatalf("Version = %q, %v", v1, err)
	}
	// The same --version, another script.
	os.WriteFile(tool, []byte("#!"+interp+"\necho 'wrapper version 1.0' # now it does more\n"), 0o755)
	v2, _ := c.Version("llc", tool)
	if v2 == v1 {
		t.Errorf("a changed script has the same identity %q", v2)
	}
	// The same script, another interpreter (same size, a later time).
	data[len(data)-1] ^= 0xff
	os.WriteFile(interp, data, 0o755)
	future := time.Now().Add(time.Hour)
	os.Chtimes(interp, future, future)
	v3, _ := c.Version("llc", tool)
	if v3 == v2 || !strings.Contains(v3, "; interpreter "+interp+" sha256:") {
		t.Errorf("a changed interpreter: identity %q, before %q", v3, v2)
	}
	// Remembered: a saved cache gives the same identity.
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if v4, _ := LoadVersionCache(filepath.Join(dir, "versions")).Version("llc", tool); v4 != v3 {
		t.Errorf("from the saved cache: %q, want %q", v4, v3)
	}
}
