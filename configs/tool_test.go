package configs

import (
	"slices"
	"testing"
)

// The tools: section's keys are the external roles docs/targets.md lists;
// sycl-post-link runs in process and is a key of options: only.
func TestParseTool(t *testing.T) {
	want := []Tool{"llvm-link", "llvm-as", "llvm-spirv", "spirv-val", "ocloc", "llc", "ptxas", "fatbinary", "ld.lld", "clang-offload-bundler"}
	if got := ExternalTools(); !slices.Equal(got, want) {
		t.Errorf("ExternalTools() = %q, want %q", got, want)
	}
	for _, name := range want {
		if tool, ok := ParseTool(string(name)); !ok || tool != name {
			t.Errorf("ParseTool(%q) = %q, %v", name, tool, ok)
		}
	}
	for _, name := range []string{"sycl-post-link", "llvm-spirv-15", "", "OCLOC"} {
		if _, ok := ParseTool(name); ok {
			t.Errorf("ParseTool(%q) accepts it", name)
		}
	}
	// The set is fixed: a caller's change to the returned slice is its own.
	ExternalTools()[0] = "x"
	if ExternalTools()[0] != ToolLLVMLink {
		t.Errorf("ExternalTools shares its array with callers")
	}
}
