package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Staging writes an action's outputs under a directory all at once: each
// file goes to a temporary name beside its final one, is checked against
// its digest when complete, and Commit renames them all into place. Abort
// (or a failed Commit) leaves no temporary file and no output written.
type Staging struct {
	dir   string
	files []*StagedFile
}

// NewStaging returns a staging of outputs under dir.
func NewStaging(dir string) *Staging { return &Staging{dir: dir} }

// StagedFile is one output being written. Write to it, then Finish.
type StagedFile struct {
	f     *os.File
	h     hash.Hash
	n     int64
	temp  string
	final string
	done  bool
}

// Create starts the output rel (a path relative to the staging's
// directory), executable or not.
func (s *Staging) Create(rel string, exec bool) (*StagedFile, error) {
	final := filepath.Join(s.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(final), 0o777); err != nil {
		return nil, err
	}
	perm := os.FileMode(0o666)
	if exec {
		perm = 0o777
	}
	var f *os.File
	var err error
	for {
		f, err = os.OpenFile(atomicfile.TempName(final), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, os.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	sf := &StagedFile{f: f, h: sha256.New(), temp: f.Name(), final: final}
	s.files = append(s.files, sf)
	return sf, nil
}

// Write writes p to the file and to its running digest.
func (sf *StagedFile) Write(p []byte) (int, error) {
	n, err := sf.f.Write(p)
	sf.h.Write(p[:n])
	sf.n += int64(n)
	return n, err
}

// Hash returns the SHA-256 (hex) of what was written so far.
func (sf *StagedFile) Hash() string { return hex.EncodeToString(sf.h.Sum(nil)) }

// Size returns the number of bytes written so far.
func (sf *StagedFile) Size() int64 { return sf.n }

// Name returns the file's temporary name.
func (sf *StagedFile) Name() string { return sf.temp }

// Finish closes the file and checks that what was written has digest
// want; a mismatch is a *DigestError.
func (sf *StagedFile) Finish(want Digest) error {
	if sf.done {
		return nil
	}
	sf.done = true
	if err := sf.f.Close(); err != nil {
		return err
	}
	got := Digest{hex.EncodeToString(sf.h.Sum(nil)), sf.n}
	if got != want {
		return &DigestError{Want: want, Got: got}
	}
	return nil
}

// Commit renames every finished file into place. On an error the files
// not yet renamed are removed.
func (s *Staging) Commit() error {
	for i, sf := range s.files {
		if !sf.done {
			s.files = s.files[i:]
			s.Abort()
			return fmt.Errorf("cache: output %s was not finished", sf.final)
		}
		// Place: a device, FIFO or symlink in the output's place is
		// written into, never replaced.
		if err := atomicfile.Place(sf.temp, sf.final); err != nil {
			s.files = s.files[i:]
			s.Abort()
			return err
		}
	}
	s.files = nil
	return nil
}

// Abort removes every temporary file.
func (s *Staging) Abort() {
	for _, sf := range s.files {
		if !sf.done {
			sf.f.Close()
			sf.done = true
		}
		os.Remove(sf.temp)
	}
	s.files = nil
}

// DigestError is a blob that does not match its digest.
type DigestError struct {
	Want, Got Digest
}

func (e *DigestError) Error() string {
	return fmt.Sprintf("content does not match its digest (want %s, got %s)", e.Want, e.Got)
}
