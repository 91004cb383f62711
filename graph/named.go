package graph

import (
	"github.com/sycbuild/sycbuild/internal/basedir"

	"github.com/sycbuild/sycbuild/filetable"
)

// namedFiles returns the files a list or table names, in order, without
// repeats, read by package filetable (a table's every cell is a path).
func namedFiles(dir, path string, kind FileKind) ([]string, error) {
	full := basedir.Resolve(dir, path)
	var named []string
	if kind == Table {
		t, err := filetable.ReadFile(full)
		if err != nil {
			return nil, err
		}
		for _, row := range t.Rows {
			named = append(named, row...)
		}
	} else {
		var err error
		if named, err = filetable.ReadListFile(full); err != nil {
			return nil, err
		}
	}
	out := named[:0]
	seen := map[string]bool{}
	for _, p := range named {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}
