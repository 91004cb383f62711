package llvmir

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// conformanceIR returns every .ll file of the shared conformance data.
func conformanceIR(t *testing.T) []string {
	t.Helper()
	root := testenv.ConformanceDir(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".ll") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .ll files under %s", root)
	}
	return files
}

func TestRoundTripConformance(t *testing.T) {
	for _, path := range conformanceIR(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := m.Write(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), src) {
				t.Fatalf("Module.Write is not byte-identical")
			}
			out.Reset()
			if err := m.NewPlan().Write(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), src) {
				t.Fatalf("an unedited Plan is not byte-identical:\n%s", out.Bytes())
			}
		})
	}
}
