// Package filecopy streams the bytes of an input file into an output being
// written, as the wrapper does with device images: sizes are taken from
// the file system before the output's layout is fixed, so a file that
// changed size meanwhile is an error, never a corrupt output.
package filecopy

import (
	"fmt"
	"io"
	"os"
)

// CopyN copies exactly n bytes of the file called name to w. A file that
// is now shorter or longer than n bytes is an error naming it.
func CopyN(w io.Writer, name string, n uint64) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	got, err := io.CopyN(w, f, int64(n))
	if err == io.EOF {
		return fmt.Errorf("%s: file shrank while being copied (%d of %d bytes)", name, got, n)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var one [1]byte
	if k, _ := f.Read(one[:]); k > 0 {
		return fmt.Errorf("%s: file grew while being copied (beyond %d bytes)", name, n)
	}
	return nil
}
