package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// PathWithoutLLVMAs returns a PATH value that finds every tool the current
// PATH finds except llvm-as and its versioned names (llvm-as-15, …): one
// directory of links to the executables PATH resolves, the first of each
// name, as a user has it who installed no LLVM assembler. sycbuild writes
// its bitcode itself; the tests of that run their builds with this PATH.
func PathWithoutLLVMAs(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "no-llvm-as")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if seen[name] || name == "llvm-as" || strings.HasPrefix(name, "llvm-as-") {
				continue
			}
			target := filepath.Join(dir, name)
			st, err := os.Stat(target)
			if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				continue
			}
			seen[name] = true
			if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return bin
}
