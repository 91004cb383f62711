//go:build !unix

package postlink

import "os"

// create writes data, the concatenation of its pieces, to a new file
// called name, replacing what was there: an existing file is removed
// first, never written through.
func create(name string, data ...[]byte) error {
	if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	for _, p := range data {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}
