// Package mapfile gives a file's bytes by mapping the file into memory,
// as LLVM's tools map their inputs: no copy is made, the pages are those
// of the file system's cache (on tmpfs, the file itself), and the kernel
// maps them several at a time, where reading into a buffer faults in every
// page of the buffer and copies each byte once.
//
// A mapping is never unmapped. Strings and slices that alias the bytes may
// be anywhere in the program, so only a process that exits after using
// them (a command) may call Read; a program that keeps running reads its
// files with os.ReadFile. As with any mapped input, a file truncated while
// the process still reads it ends the process with a fault.
package mapfile

import "os"

// Read returns the contents of the file called name: mapped read-only
// when it is a regular file that is not empty, read otherwise (a pipe, a
// device, an empty file). The bytes must not be written to.
func Read(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size <= 0 || int64(int(size)) != size {
		return os.ReadFile(name)
	}
	b, err := mmap(f, int(size))
	if err != nil {
		// A file system that cannot map files is read instead.
		return os.ReadFile(name)
	}
	return b, nil
}
