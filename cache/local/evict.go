package local

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Stats is what a cache directory holds.
type Stats struct {
	Dir     string
	Entries int   // actions
	Blobs   int   // distinct output files
	Bytes   int64 // entries and blobs together
	MaxSize int64
}

// Stats walks the cache directory and counts what it holds.
func (c *Cache) Stats() (Stats, error) {
	s := Stats{Dir: c.dir, MaxSize: c.maxSize}
	files, err := c.files()
	for _, f := range files {
		if f.entry {
			s.Entries++
		} else {
			s.Blobs++
		}
		s.Bytes += f.size
	}
	return s, err
}

// Clean removes every entry and blob, from a directory that carries
// sycbuild's cache marker only.
func (c *Cache) Clean() error {
	if err := checkMarker(c.dir); err != nil {
		return err
	}
	for _, sub := range []string{"ac", "cas", "tmp"} {
		d := filepath.Join(c.dir, sub)
		if err := os.RemoveAll(d); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		if err := os.MkdirAll(d, 0o777); err != nil {
			return fmt.Errorf("cache: %w", err)
		}
	}
	c.added.Store(0)
	return nil
}

// file is one file of the store.
type file struct {
	path  string
	size  int64
	mtime time.Time
	entry bool
}

// files lists the entries and blobs.
func (c *Cache) files() ([]file, error) {
	var files []file
	for _, sub := range []string{"ac", "cas"} {
		root := filepath.Join(c.dir, sub)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil // removed by another process meanwhile
				}
				return err
			}
			if d.IsDir() || !validHash(d.Name()) {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			files = append(files, file{p, fi.Size(), fi.ModTime(), sub == "ac"})
			return nil
		})
		if err != nil {
			return files, fmt.Errorf("cache: %w", err)
		}
	}
	return files, nil
}

// trimSoon trims the cache in the background unless a trim is under way.
func (c *Cache) trimSoon() {
	if !c.trimming.CompareAndSwap(false, true) {
		return
	}
	c.trims.Add(1)
	go func() {
		defer c.trims.Done()
		defer c.trimming.Store(false)
		if err := c.Trim(); err != nil {
			c.warn(err.Error())
		}
	}()
}

// Trim removes the files used least recently until the cache is under
// nine tenths of its size bound, if it is over the bound, and the
// temporary files of processes that no longer run. A file used since the
// walk began (by this process or another) is kept. A blob removed under an
// entry makes the entry stale: its next lookup is a miss that removes it.
// Put trims in the background when the process has added an eighth of
// the bound, and Close trims.
func (c *Cache) Trim() error {
	c.added.Store(0)
	atomicfile.RemoveStale(filepath.Join(c.dir, "tmp"))
	start := time.Now()
	files, err := c.files()
	if err != nil {
		return err
	}
	var total int64
	for _, f := range files {
		total += f.size
	}
	if total <= c.maxSize {
		return nil
	}
	slices.SortFunc(files, func(a, b file) int {
		if r := a.mtime.Compare(b.mtime); r != 0 {
			return r
		}
		return cmp.Compare(a.path, b.path)
	})
	target := c.maxSize / 10 * 9
	for _, f := range files {
		if total <= target {
			break
		}
		if fi, err := os.Stat(f.path); err != nil || fi.ModTime().After(start) {
			continue
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	return nil
}
