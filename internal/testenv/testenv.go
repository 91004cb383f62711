// Package testenv holds what the project's tests share: where the repository
// and the conformance data are, finding the real external tools, and building
// the sycbuild binary once per test process.
//
// Outside CI (CI unset) a test whose tool or data is missing is skipped with
// a message saying what is missing; in CI it fails, because CI installs
// everything (scripts/install-toolchain.sh).
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// InCI reports whether the tests run in CI.
func InCI() bool { return os.Getenv("CI") != "" }

// RepoRoot returns the repository's root directory (the one holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testenv: cannot locate the source tree")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// SharedDir returns the project's shared folder (../shared beside the
// repository), or skips (fails in CI) when it is absent.
func SharedDir(t testing.TB) string {
	t.Helper()
	d := filepath.Join(RepoRoot(t), "..", "shared")
	if _, err := os.Stat(filepath.Join(d, "conformance")); err != nil {
		const what = "the shared conformance data (../shared/conformance beside the repository)"
		if InCI() {
			t.Fatalf("missing in CI: %s", what)
		}
		record(t, what+" is not there")
		t.Skipf("skipped: %s is not there", what)
	}
	return d
}

// ConformanceDir returns ../shared/conformance/intel-llvm.
func ConformanceDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(SharedDir(t), "conformance", "intel-llvm")
}

// Missing skips the test outside CI and fails it in CI. The skip is
// recorded as NotChecked records what a test did not check.
func Missing(t testing.TB, what string) {
	t.Helper()
	if InCI() {
		t.Fatalf("missing in CI: %s (scripts/install-toolchain.sh should provide it)", what)
	}
	record(t, what+" not available")
	t.Skipf("skipped: %s not available (run scripts/install-toolchain.sh)", what)
}

// Tool returns the path of an external tool found on PATH (e.g. "llvm-as-19"),
// or skips (fails in CI) when it is not installed.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "tool "+name)
	}
	return p
}

// HaveTool reports whether name is on PATH.
func HaveTool(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	buildOut  []byte
)

// Sycbuild builds cmd/sycbuild once per test process and returns the binary's
// path. The binary lives in a temporary directory; a package that uses it
// runs its tests through Main so that the directory is removed at the end.
func Sycbuild(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "sycbuild-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(buildDir, "sycbuild"), "./cmd/sycbuild")
		cmd.Dir = RepoRoot(t)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building sycbuild: %v\n%s", buildErr, buildOut)
	}
	return filepath.Join(buildDir, "sycbuild")
}

// ToolLinks returns a directory holding links named like the DPC++ tools
// (file-table-tform, llvm-foreach, sycl-post-link, clang-offload-wrapper)
// and like LLVM 22's clang-sycl-linker
// that point at the sycbuild binary; put it first on PATH to run the
// reference's command lines unchanged.
func ToolLinks(t testing.TB) string {
	t.Helper()
	bin := Sycbuild(t)
	dir := filepath.Join(filepath.Dir(bin), "links")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"file-table-tform", "llvm-foreach", "sycl-post-link", "clang-offload-wrapper", "clang-sycl-linker"} {
		l := filepath.Join(dir, n)
		if _, err := os.Lstat(l); err == nil {
			continue
		}
		if err := os.Symlink(bin, l); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	return dir
}

// Main runs a package's tests and then removes what this package made for
// them (the sycbuild binary's directory). Use it as
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	RemoveSycbuild()
	os.Exit(code)
}

// RemoveSycbuild removes what Sycbuild built, for a TestMain that has
// more to clean up than Main does.
func RemoveSycbuild() {
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}

// AddBitcodeSeeds adds the bitcode package's seed modules
// (bitcode/testdata/seed/*.bc) to fuzz target f's corpus.
func AddBitcodeSeeds(f *testing.F) {
	f.Helper()
	seeds, err := filepath.Glob(filepath.Join(RepoRoot(f), "bitcode", "testdata", "seed", "*.bc"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("testenv: no bitcode seeds: %v", err)
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}
