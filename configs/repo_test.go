package configs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
