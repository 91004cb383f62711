// Package local is sycbuild's shared local cache: a content-addressed
// store in a directory outside the build directory, shared by every build
// of a user (and by several sycbuild processes at once).
//
// Layout under the cache directory:
//
//	CACHEDIR.TAG          marks the directory as a cache for backup tools
//	ac/ab/abcd…           one entry per action, named by the action's key
//	                      (cache.Encode: the digest of its REAPI Action)
//	cas/12/1234…          one blob per distinct output, named by its SHA-256
//	tmp/                  blobs being written
//
// An entry is a small JSON document naming the action's outputs with the
// digest and mode of each, and what the action printed. Blobs and entries
// are written to a temporary name and renamed into place, so a reader sees
// a whole file or none, and a blob is stored once however many entries use
// it. Every blob read back is checked against its digest: a corrupted one
// is removed, and the lookup is a miss with a warning.
//
// The cache is bounded by a size: when it grows past it, the files used
// least recently (a hit or a store sets a file's modification time) are
// removed until it is under nine tenths of it.
package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// DefaultMaxSize is the size bound of a cache whose options give none.
const DefaultMaxSize = 10 << 30

// Options configure a local cache.
type Options struct {
	// Dir is the cache directory; "" means DefaultDir().
	Dir string
	// MaxSize bounds the cache's size in bytes; 0 means DefaultMaxSize.
	MaxSize int64
	// Warn receives the cache's warnings (a corrupted blob, a cache that
	// cannot be written); nil writes them to standard error.
	Warn func(string)
}

// DefaultDir returns the default cache directory: $XDG_CACHE_HOME/sycbuild,
// else ~/.cache/sycbuild (the system's user cache directory elsewhere).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache: no cache directory: %w", err)
	}
	return filepath.Join(d, "sycbuild"), nil
}

// Cache is a local shared cache. Its methods may be called concurrently.
type Cache struct {
	dir     string
	maxSize int64
	warn    func(string)

	hits, misses, stored atomic.Int64
	// added counts the bytes stored since the last trim.
	added    atomic.Int64
	trimming atomic.Bool
	trims    sync.WaitGroup

	storeOff  atomic.Bool
	storeWarn sync.Once
}

// Open opens (creating it if need be) the cache directory.
func Open(opts Options) (*Cache, error) {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	c := &Cache{dir: dir, maxSize: opts.MaxSize, warn: opts.Warn}
	if c.maxSize <= 0 {
		c.maxSize = DefaultMaxSize
	}
	if c.warn == nil {
		c.warn = func(s string) { fmt.Fprintln(os.Stderr, "warning: "+s) }
	}
	for _, sub := range []string{"ac", "cas", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o777); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
	}
	tag := filepath.Join(dir, tagName)
	if _, err := os.Stat(tag); errors.Is(err, fs.ErrNotExist) {
		err = atomicfile.Write(tag, func(w io.Writer) error {
			_, err := io.WriteString(w, "Signature: 8a477f597d28d172789f06886806bc55\n"+marker+" (sycbuild cache stats|clean).\n")
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
	}
	return c, nil
}

// tagName is the cache directory's tag file, and marker the line in it
// that says the directory is sycbuild's: only such a directory is read by
// OpenExisting and emptied by Clean.
const (
	tagName = "CACHEDIR.TAG"
	marker  = "# This directory is sycbuild's cache"
)

// ErrNoCache is OpenExisting's error for a cache directory that does not
// exist.
var ErrNoCache = errors.New("no cache")

// OpenExisting opens a cache directory that already exists and carries
// sycbuild's marker, creating nothing: for the commands that only read or
// empty a cache, which must never turn a mistyped directory into one (or
// empty its ac/, cas/ and tmp/). A directory that does not exist is
// ErrNoCache.
func OpenExisting(opts Options) (*Cache, error) {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoCache, dir)
	}
	if err := checkMarker(dir); err != nil {
		return nil, err
	}
	c := &Cache{dir: dir, maxSize: opts.MaxSize, warn: opts.Warn}
	if c.maxSize <= 0 {
		c.maxSize = DefaultMaxSize
	}
	if c.warn == nil {
		c.warn = func(s string) { fmt.Fprintln(os.Stderr, "warning: "+s) }
	}
	return c, nil
}

// checkMarker says whether dir carries sycbuild's cache marker.
func checkMarker(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, tagName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	if err != nil || !strings.Contains(string(b), "\n"+marker) {
		return fmt.Errorf("cache: %s is not a sycbuild cache (it has no %s naming sycbuild): left as it is", dir, tagName)
	}
	return nil
}

// Dir returns the cache directory.
func (c *Cache) Dir() string { return c.dir }

// entry is an action's record in ac/.
type entry struct {
	Key     string      `json:"key"`
	Outputs []fileEntry `json:"outputs"`
	Output  []byte      `json:"output,omitempty"`
}

type fileEntry struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
	Size int64  `json:"size"`
	Exec bool   `json:"exec,omitempty"`
}

func (c *Cache) entryPath(key string) string { return filepath.Join(c.dir, "ac", key[:2], key) }
func (c *Cache) blobPath(hash string) string { return filepath.Join(c.dir, "cas", hash[:2], hash) }

// Get looks a up and on a hit writes its outputs under dir.
func (c *Cache) Get(ctx context.Context, a *cache.Action, dir string) (*cache.Result, error) {
	enc, err := cache.Encode(a)
	if err != nil {
		return nil, err
	}
	r, err := c.get(enc, dir)
	if r == nil && err == nil {
		c.misses.Add(1)
	}
	return r, err
}

func (c *Cache) get(enc *cache.Encoded, dir string) (*cache.Result, error) {
	ep := c.entryPath(enc.Key.Hash)
	data, err := os.ReadFile(ep)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.warn(fmt.Sprintf("cache %s: %v", c.dir, err))
		}
		return nil, nil
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != enc.Key.Hash || !sameOutputs(e.Outputs, enc.Outputs) {
		c.warn(fmt.Sprintf("cache %s: entry %s is damaged; removed", c.dir, ep))
		os.Remove(ep)
		return nil, nil
	}
	st := cache.NewStaging(dir)
	for _, f := range e.Outputs {
		if !validHash(f.Hash) {
			st.Abort()
			c.warn(fmt.Sprintf("cache %s: entry %s is damaged; removed", c.dir, ep))
			os.Remove(ep)
			return nil, nil
		}
		bp := c.blobPath(f.Hash)
		src, err := os.Open(bp)
		if err != nil {
			st.Abort()
			if errors.Is(err, fs.ErrNotExist) {
				// Evicted since the entry was written: the entry is stale.
				os.Remove(ep)
			} else {
				c.warn(fmt.Sprintf("cache %s: %v", c.dir, err))
			}
			return nil, nil
		}
		dst, err := st.Create(f.Path, f.Exec)
		if err != nil {
			src.Close()
			st.Abort()
			return nil, fmt.Errorf("writing %s from the cache: %w", f.Path, err)
		}
		_, err = copyFile(dst, src)
		src.Close()
		if err == nil {
			err = dst.Finish(cache.Digest{Hash: f.Hash, Size: f.Size})
		}
		if err != nil {
			st.Abort()
			var de *cache.DigestError
			if errors.As(err, &de) {
				c.warn(fmt.Sprintf("cache %s: blob %s: %v; removed", c.dir, bp, err))
				os.Remove(bp)
				return nil, nil
			}
			return nil, fmt.Errorf("writing %s from the cache: %w", f.Path, err)
		}
	}
	if err := st.Commit(); err != nil {
		return nil, fmt.Errorf("writing outputs from the cache: %w", err)
	}
	now := time.Now()
	os.Chtimes(ep, now, now)
	for _, f := range e.Outputs {
		os.Chtimes(c.blobPath(f.Hash), now, now)
	}
	c.hits.Add(1)
	return &cache.Result{Output: e.Output, Source: cache.Local}, nil
}

func sameOutputs(files []fileEntry, outputs []string) bool {
	if len(files) != len(outputs) {
		return false
	}
	for i, f := range files {
		if f.Path != outputs[i] {
			return false
		}
	}
	return true
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !('0' <= h[i] && h[i] <= '9' || 'a' <= h[i] && h[i] <= 'f') {
			return false
		}
	}
	return true
}

// Put stores a's outputs, read from under dir, and r. It returns when
// the entry is stored.
func (c *Cache) Put(ctx context.Context, a *cache.Action, r *cache.Result, dir string) error {
	enc, err := cache.Encode(a)
	if err != nil {
		return err
	}
	e := entry{Key: enc.Key.Hash, Outputs: make([]fileEntry, 0, len(enc.Outputs))}
	if r != nil {
		e.Output = r.Output
	}
	if c.storeOff.Load() {
		return nil
	}
	var added int64
	for _, o := range enc.Outputs {
		f, n, err := c.storeBlob(filepath.Join(dir, filepath.FromSlash(o)))
		var se *sourceError
		if errors.As(err, &se) {
			c.warn(fmt.Sprintf("cache %s: not stored: %v", c.dir, se.err))
			return nil
		}
		if err != nil {
			c.stopStoring(err)
			return nil
		}
		f.Path = o
		e.Outputs = append(e.Outputs, f)
		added += n
	}
	data, err := json.Marshal(&e)
	if err != nil {
		return err
	}
	ep := c.entryPath(e.Key)
	err = os.MkdirAll(filepath.Dir(ep), 0o777)
	if err == nil {
		err = atomicfile.Write(ep, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
	}
	if err != nil {
		c.stopStoring(err)
		return nil
	}
	c.stored.Add(1)
	if c.added.Add(added+int64(len(data))) > c.maxSize/8 {
		c.trimSoon()
	}
	return nil
}

// stopStoring turns storing off for the rest of the build, with one
// warning: a cache that cannot be written (a full disk, a read-only
// directory) would otherwise warn once per action.
func (c *Cache) stopStoring(err error) {
	c.storeWarn.Do(func() {
		c.storeOff.Store(true)
		c.warn(fmt.Sprintf("cache %s: cannot store: %v; storing nothing more in this build", c.dir, err))
	})
}

// sourceError is an output that cannot be read: that action is not
// stored, the cache is fine.
type sourceError struct{ err error }

func (e *sourceError) Error() string { return e.err.Error() }

// storeBlob copies the file called name into the store (one pass: the
// copy is hashed as it is written) and returns its record and the bytes
// added to the store.
func (c *Cache) storeBlob(name string) (fileEntry, int64, error) {
	src, err := os.Open(name)
	if err != nil {
		return fileEntry{}, 0, &sourceError{err}
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return fileEntry{}, 0, &sourceError{err}
	}
	if !fi.Mode().IsRegular() {
		return fileEntry{}, 0, &sourceError{fmt.Errorf("%s is not a regular file", name)}
	}
	st := cache.NewStaging(filepath.Join(c.dir, "tmp"))
	tmp, err := st.Create("blob", false)
	if err != nil {
		return fileEntry{}, 0, err
	}
	if _, err := copyFile(tmp, src); err != nil {
		st.Abort()
		return fileEntry{}, 0, err
	}
	d := cache.Digest{Hash: tmp.Hash(), Size: tmp.Size()}
	if err := tmp.Finish(d); err != nil {
		st.Abort()
		return fileEntry{}, 0, err
	}
	fe := fileEntry{Hash: d.Hash, Size: d.Size, Exec: fi.Mode()&0o111 != 0}
	bp := c.blobPath(d.Hash)
	now := time.Now()
	if os.Chtimes(bp, now, now) == nil {
		st.Abort() // already stored
		return fe, 0, nil
	}
	if err := os.MkdirAll(filepath.Dir(bp), 0o777); err != nil {
		st.Abort()
		return fileEntry{}, 0, err
	}
	if err := os.Rename(tmp.Name(), bp); err != nil {
		st.Abort()
		return fileEntry{}, 0, err
	}
	return fe, d.Size, nil
}

// copyBuffers are the buffers of copyFile, reused.
var copyBuffers = sync.Pool{New: func() any { return new([256 << 10]byte) }}

// copyFile copies src to w through a buffer larger than io.Copy's.
func copyFile(w io.Writer, src *os.File) (int64, error) {
	buf := copyBuffers.Get().(*[256 << 10]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(w, struct{ io.Reader }{src}, buf[:])
}

// Close waits for a trim under way, and trims the cache if this process
// stored anything.
func (c *Cache) Close() error {
	c.trims.Wait()
	if c.stored.Load() > 0 {
		return c.Trim()
	}
	return nil
}

// Counters returns the hits, misses and stores of this process.
func (c *Cache) Counters() cache.Counters {
	return cache.Counters{LocalHits: c.hits.Load(), Misses: c.misses.Load(), Stored: c.stored.Load()}
}

var _ cache.Cache = (*Cache)(nil)
var _ cache.Counted = (*Cache)(nil)
