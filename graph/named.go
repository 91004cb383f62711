package graph

import (
	"bytes"
	"os"
	"path/filepath"
)

// namedFiles returns the files a list or table names, in order, without
// repeats. A list has one path per line; a table has an optional
// "[title|…]" line, then rows of '|'-separated cells, each cell a path
// (the file-table format of sycl-post-link and file-table-tform). Blank
// lines are skipped and "\r\n" line ends accepted, as LLVM's line_iterator
// does.
func namedFiles(dir, path string, kind FileKind) ([]string, error) {
	full := path
	if dir != "" && !filepath.IsAbs(path) {
		full = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	return parseNamed(data, kind), nil
}

func parseNamed(data []byte, kind FileKind) []string {
	var out []string
	seen := map[string]bool{}
	first := true
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			continue
		}
		if kind == Table && first && line[0] == '[' {
			first = false
			continue
		}
		first = false
		cells := [][]byte{line}
		if kind == Table {
			cells = bytes.Split(line, []byte{'|'})
		}
		for _, c := range cells {
			if len(c) == 0 || seen[string(c)] {
				continue
			}
			seen[string(c)] = true
			out = append(out, string(c))
		}
	}
	return out
}
