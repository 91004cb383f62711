// Package basedir resolves the relative paths of a build against the
// directory they are relative to: sycbuild never changes its working
// directory, so every tool that opens a file the build names goes through
// here.
package basedir

import "path/filepath"

// Resolve is path relative to dir, or path itself when it is absolute or
// dir is "" (the working directory).
func Resolve(dir, path string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}
