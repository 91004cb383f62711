package graph

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// rawFile is a file open for reading.
type rawFile struct{ *os.File }

// openRead opens a file for reading.
func openRead(path string) (rawFile, error) {
	f, err := os.Open(path)
	return rawFile{f}, err
}

// Read reads into p; it returns 0 and no error at the end of the file.
func (f rawFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

// stat says whether the open file is a regular file, its size and its
// modification time in nanoseconds.
func (f rawFile) stat() (regular bool, size, mtime int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return false, 0, 0, err
	}
	return fi.Mode().IsRegular(), fi.Size(), fi.ModTime().UnixNano(), nil
}

// openDirLock opens the lock file in the directory dir: Windows locks
// files, not directories.
func openDirLock(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o644)
}

// tryLock takes the lock on f if no other process holds it.
func tryLock(f *os.File) bool {
	return lockFile(f, windows.LOCKFILE_FAIL_IMMEDIATELY) == nil
}

// waitLock waits for the lock on f.
func waitLock(f *os.File) error { return lockFile(f, 0) }

func lockFile(f *os.File, flags uint32) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|flags, 0, 1, 0, &ol)
}
