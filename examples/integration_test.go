package examples

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fresh copies the example directory name (relative to examples/) into a
// temporary directory, as a fresh clone has it: build outputs that a local
// run may have left (out/, build directories, Bazel's convenience links)
// are not copied.
func fresh(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(testenv.RepoRoot(t), "examples", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && isBuildOutput(d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(d.Name(), "_test.go") {
			return nil // links (bazel-bin …) and this package's tests
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatalf("copying examples/%s: %v", name, err)
	}
	return dst
}

// isBuildOutput says whether a directory is one the examples' builds make.
func isBuildOutput(name string) bool {
	return name == "out" || strings.HasPrefix(name, "build") || strings.HasPrefix(name, "bazel-")
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// run runs a command in dir and returns its combined output; a failure
// fails the test with the command and its output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := runErr(dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return out
}

func runErr(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}

// touch gives path a modification time newer than anything the last build
// wrote. It waits a little first: file times come from a clock that ticks
// every few milliseconds, and a build tool only rebuilds what is strictly
// newer. touch(1) sets the time from that same clock, as a later write will.
func touch(t *testing.T, path string) {
	t.Helper()
	time.Sleep(30 * time.Millisecond)
	if out, err := exec.Command("touch", path).CombinedOutput(); err != nil {
		t.Fatalf("touch %s: %v\n%s", path, err, out)
	}
}

// lines returns the lines of out that contain sub.
func lines(out, sub string) []string {
	var l []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, sub) {
			l = append(l, line)
		}
	}
	return l
}

// readFile returns a file's content or fails the test.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
