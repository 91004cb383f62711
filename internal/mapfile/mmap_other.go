//go:build !unix

package mapfile

import (
	"errors"
	"os"
)

// mmap is Unix's; elsewhere Read reads the file.
func mmap(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }
