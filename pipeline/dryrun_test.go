package pipeline_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestDryRunCommands: the commands -n prints for example configs are those
// in testdata/dryrun, first written by sycbuild when it still built the
// in-process tools' command lines as strings and rendered now from the
// tools' typed options (the same lines mean the same action keys, so a
// build made before is still up to date), then changed once where the
// modules became bitcode that llvm-spirv reads without llvm-as. The
// executable's path is written "sycbuild" in the files.
func TestDryRunCommands(t *testing.T) {
	needTools(t, "llvm-spirv-15", "spirv-val", "ocloc")
	root := t.TempDir()
	for _, d := range []string{"quickstart", "upstream", "spir64_gen"} {
		copyTree(t, filepath.Join(testenv.RepoRoot(t), "examples", d), filepath.Join(root, "examples", d))
	}
	self := testenv.Sycbuild(t)
	for _, c := range []struct {
		golden string
		dir    string // where sycbuild starts
		args   []string
	}{
		{"quickstart.sh", "examples/quickstart", []string{"-n"}},
		{"upstream_per_source.sh", ".", []string{"-n", "-config", "examples/upstream/per_source.yaml"}},
		{"spir64_gen.sh", ".", []string{"-n", "-config", "examples/spir64_gen/targets.yaml"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "dryrun", c.golden))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(self, c.args...)
			cmd.Dir = filepath.Join(root, c.dir)
			var out, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("sycbuild %s: %v\n%s", strings.Join(c.args, " "), err, stderr.String())
			}
			got := strings.ReplaceAll(out.String(), self+" ", "sycbuild ")
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("line %d differs:\ngot:  %s\nwant: %s", i+1, g, w)
					}
				}
			}
		})
	}
}

// copyTree copies the regular files under src to dst, leaving out build
// directories (out/).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch {
		case d.IsDir() && rel == "out":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
