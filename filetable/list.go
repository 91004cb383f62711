package filetable

import (
	"bytes"
	"io"
	"os"
)

// A file list is one path per line (what llvm-foreach reads and writes, and
// file-table-tform --extract with --drop_titles writes).

// ReadList reads a file list: one item per line, "\n" or "\r\n" line ends,
// blank lines skipped (as LLVM's line_iterator does).
func ReadList(r io.Reader) ([]string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var items []string
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
			line = bytes.TrimSuffix(line, []byte{'\r'})
		} else {
			data = nil
		}
		if len(line) > 0 {
			items = append(items, string(line))
		}
	}
	return items, nil
}

// ReadListFile reads the file list in the file called name.
func ReadListFile(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadList(f)
}
