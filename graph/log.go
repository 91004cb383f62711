package graph

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
)

// The build log remembers how every action (and every fan-out job) was last
// built: its key, the hash of each part of the key (to explain what
// changed), and the content hashes of its inputs and outputs with their size
// and modification time. It is ninja's .ninja_log idea with content hashes:
//
//   - one line per record, appended (one write) only after the action
//     succeeded, so an interrupted build records nothing it did not finish
//     and a torn last line is simply ignored;
//   - the last record of a name wins; the file is rewritten compactly when
//     it holds more than three times as many lines as names;
//   - size and mtime only let a recorded hash be reused without reading the
//     file again (a no-op build of a thousand images reads no file).
//
// Line format (fields separated by tabs, lists by RS (0x1e), list members
// by US (0x1f)):
//
//	name  key  tools  command-hash  inputs  outputs  [usage]
//
// where tools is a list of "identity-hash", inputs and outputs are lists
// of "path US hash US size US mtime-ns", and the optional usage is
// "maxrss-bytes US wall-ns" of the external commands that last ran.
const (
	logHeader = "# sycbuild log v1\n"
	logName   = "log"
	lockName  = "lock"
	rs        = "\x1e"
	us        = "\x1f"
)

// fileState is what the log knows about one file.
type fileState struct {
	path  string
	hash  string
	size  int64
	mtime int64
}

// record is how one action or job was last built.
type record struct {
	name    string
	key     string
	tools   []string
	cmd     string
	inputs  []fileState
	outputs []fileState
	// maxRSS and wall are what its external commands cost when it last
	// ran: the largest peak resident set size, in bytes, and the time
	// (0 when unknown, or for in-process tools).
	maxRSS int64
	wall   int64 // nanoseconds
}

// inputSize is the total size of the record's inputs.
func (r *record) inputSize() int64 {
	var n int64
	for _, in := range r.inputs {
		n += in.size
	}
	return n
}

// buildLog is the loaded log plus the cache of file hashes.
type buildLog struct {
	dir  string // "" when there is no log (nothing is cached)
	f    *os.File
	lock *os.File

	mu      sync.Mutex
	records map[string]*record
	lines   int
	facts   map[string]fileState // path → last known state
	// seen holds the states this build has stat'ed, so that a file named
	// by several tables (a split module: by the post-link table, the code
	// list and the wrapper's table) is looked at once; what the build
	// writes is forgotten.
	seen map[string]fileState
	// written holds the size and time of outputs a command just wrote, as
	// runCommand saw them before renaming them into place (a rename keeps
	// both), so that hashing them needs no second stat.
	written map[string]fileState

	// pending are records whose files are not yet known to be durable;
	// flush syncs their files and appends them (group commit).
	pending  []pendingRecord
	flushing bool       // a timer will flush pending
	flushErr error      // what a timer's flush failed with
	flushMu  sync.Mutex // one flush at a time
}

type pendingRecord struct {
	rec   *record
	files []string // to make durable before rec is written
}

// openLog loads the log in dir and opens it for appending. With readOnly
// (a dry run) it only loads. dir "" gives an empty log that stores nothing.
// Unless readOnly, it first takes the build's lock: an exclusive flock on
// lockDir itself (created if missing) when it is not "", else on dir's
// lock file; waiting calls waiting once, and ends when ctx is cancelled.
func openLog(ctx context.Context, dir, lockDir string, readOnly bool, waiting func()) (*buildLog, error) {
	l := &buildLog{dir: dir, records: map[string]*record{}, facts: map[string]fileState{}, seen: map[string]fileState{}}
	if !readOnly {
		lock, err := takeLock(ctx, dir, lockDir, waiting)
		if err != nil {
			return nil, err
		}
		l.lock = lock
	}
	if dir == "" {
		return l, nil
	}
	if !readOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			l.Close()
			return nil, err
		}
	}
	if err := l.load(); err != nil {
		l.Close()
		return nil, err
	}
	if readOnly {
		return l, nil
	}
	if err := l.openAppend(); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// takeLock locks lockDir, or else dir's lock file (nothing when both are
// ""). Locking the directory itself keeps the lock inside what the build
// owns: a build without a state directory (no cache) is locked the same
// way, and two builds, cached or not, never share one build directory.
func takeLock(ctx context.Context, dir, lockDir string, waiting func()) (*os.File, error) {
	var lock *os.File
	var err error
	switch {
	case lockDir != "":
		if err := os.MkdirAll(lockDir, 0o755); err != nil {
			return nil, err
		}
		lock, err = openDirLock(lockDir)
	case dir != "":
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		lock, err = os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if tryLock(lock) {
		return lock, nil
	}
	if waiting != nil {
		waiting()
	}
	// Waiting for a lock cannot be interrupted from Go: it waits in a
	// goroutine of its own, and an interrupt does not wait for it (the
	// lock it may still get is released at once).
	got := make(chan error, 1)
	go func() { got <- waitLock(lock) }()
	select {
	case err := <-got:
		if err != nil {
			lock.Close()
			return nil, fmt.Errorf("locking %s: %w", lock.Name(), err)
		}
		return lock, nil
	case <-ctx.Done():
		go func() {
			<-got
			lock.Close()
		}()
		return nil, context.Cause(ctx)
	}
}

func (l *buildLog) load() error {
	f, err := os.Open(filepath.Join(l.dir, logName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	if head, _ := r.ReadString('\n'); head != logHeader {
		return nil // another version: start afresh (the file is rewritten)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break // EOF, or a torn last line
		}
		if rec := parseRecord(line[:len(line)-1]); rec != nil {
			l.lines++
			l.add(rec)
		}
	}
	return nil
}

func (l *buildLog) add(rec *record) {
	l.records[rec.name] = rec
	for _, fs := range rec.inputs {
		l.facts[fs.path] = fs
	}
	for _, fs := range rec.outputs {
		l.facts[fs.path] = fs
	}
}

func (l *buildLog) openAppend() error {
	name := filepath.Join(l.dir, logName)
	if l.lines == 0 || l.lines > 100 && l.lines > 3*len(l.records) {
		if err := l.rewrite(); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	l.f = f
	return nil
}

// rewrite writes the current records to a new log and renames it into
// place.
func (l *buildLog) rewrite() error {
	err := atomicfile.Write(filepath.Join(l.dir, logName), func(f io.Writer) error {
		w := bufio.NewWriter(f)
		w.WriteString(logHeader)
		for _, name := range sortedNames(l.records) {
			w.WriteString(l.records[name].line())
		}
		return w.Flush()
	})
	if err == nil {
		l.lines = len(l.records)
	}
	return err
}

// put records rec in memory at once, and on disk once the files named by
// durable are (atomicfile.Sync): the log never records a file a power
// loss could take back. The records put within flushDelay share one sync
// and one write (group commit), so a build of thousands of jobs syncs
// once a second at most, not once per job; Close writes what is
// left. A build killed before a write loses only those records: their
// actions run again. An error writing the log is Close's.
func (l *buildLog) put(rec *record, durable []string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(rec)
	if l.f == nil {
		return nil
	}
	l.pending = append(l.pending, pendingRecord{rec, durable})
	if !l.flushing {
		l.flushing = true
		time.AfterFunc(flushDelay, func() {
			err := l.flush()
			l.mu.Lock()
			l.flushErr = errors.Join(l.flushErr, err)
			l.mu.Unlock()
		})
	}
	return nil
}

// flushDelay is how long a record may wait to be written with others.
const flushDelay = time.Second

// flush makes the pending records' files durable and appends the records.
func (l *buildLog) flush() error {
	l.flushMu.Lock()
	defer l.flushMu.Unlock()
	l.mu.Lock()
	batch := l.pending
	l.pending = nil
	l.flushing = false
	f := l.f
	l.mu.Unlock()
	if len(batch) == 0 || f == nil {
		return nil
	}
	var files []string
	for _, p := range batch {
		files = append(files, p.files...)
	}
	var syncErr error
	if err := atomicfile.Sync(files...); err != nil {
		// Some file cannot be synced: record those that can, one by one.
		// The others are not recorded, and their actions run again.
		syncErr = err
		var kept []pendingRecord
		for _, p := range batch {
			if atomicfile.Sync(p.files...) == nil {
				kept = append(kept, p)
			}
		}
		batch = kept
	}
	var b strings.Builder
	for _, p := range batch {
		b.WriteString(p.rec.line())
	}
	l.mu.Lock()
	l.lines += len(batch)
	l.mu.Unlock()
	_, err := io.WriteString(f, b.String())
	return errors.Join(syncErr, err)
}

func (l *buildLog) get(name string) *record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.records[name]
}

// Close compacts the log if it grew redundant, and releases it.
func (l *buildLog) Close() error {
	err := l.flush()
	l.flushMu.Lock() // a flush started by a timer has ended
	l.mu.Lock()
	err = errors.Join(l.flushErr, err)
	f := l.f
	l.f = nil
	l.mu.Unlock()
	l.flushMu.Unlock()
	if f != nil {
		err = errors.Join(err, f.Close())
		if l.lines > 100 && l.lines > 3*len(l.records) {
			err = errors.Join(err, l.rewrite())
		}
	}
	if l.lock != nil {
		l.lock.Close() // releases the flock
		l.lock = nil
	}
	return err
}

// state returns the current state of the file at path (dir joined when
// relative), hashing it only when its size or mtime differ from the last
// known ones. A missing file is an error satisfying errors.Is(err,
// fs.ErrNotExist).
func (l *buildLog) state(dir, path string) (fileState, error) {
	l.mu.Lock()
	st, ok := l.seen[path]
	l.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := l.look(dir, path)
	if err == nil {
		l.mu.Lock()
		l.seen[path] = st
		l.mu.Unlock()
	}
	return st, err
}

// fact returns the last known state of the file at path: what the log
// recorded of it, or what this build has seen.
func (l *buildLog) fact(path string) (fileState, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, ok := l.facts[path]
	return st, ok
}

// forget drops what this build saw of files it is about to write (or just
// wrote). No paths, as for a check that writes nothing, is nothing to forget.
func (l *buildLog) forget(paths ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range paths {
		delete(l.seen, p)
		delete(l.written, p)
	}
}

// forgetAll drops what this build saw of every file: an in-process tool
// writes files the graph does not list.
func (l *buildLog) forgetAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.seen)
	clear(l.written)
}

// wrote keeps what inspect saw of a file a command has just written (the
// caller forgot what the build saw of it before the command ran): its
// size, time and hash, taken before its rename into place, which keeps
// them.
func (l *buildLog) wrote(path string, st fileState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written == nil {
		l.written = map[string]fileState{}
	}
	st.path = path
	l.written[path] = st
}

// look stats and hashes a file, unless a command just wrote it (see
// wrote) or its size and mtime are known.
func (l *buildLog) look(dir, path string) (fileState, error) {
	full := basedir.Resolve(dir, path)
	l.mu.Lock()
	st, ok := l.written[path]
	delete(l.written, path)
	if ok {
		l.facts[path] = st
	}
	l.mu.Unlock()
	if ok {
		return st, nil
	}
	fi, err := os.Stat(full)
	if err != nil {
		return fileState{}, err
	}
	if fi.IsDir() {
		return fileState{}, fmt.Errorf("%s is a directory", path)
	}
	st = fileState{path: path, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	l.mu.Lock()
	known, ok := l.facts[path]
	l.mu.Unlock()
	if ok && known.size == st.size && known.mtime == st.mtime && known.hash != "" {
		st.hash = known.hash
		return st, nil
	}
	h, err := hashFile(full, st.size)
	if err != nil {
		return fileState{}, err
	}
	st.hash = h
	l.mu.Lock()
	l.facts[path] = st
	l.mu.Unlock()
	return st, nil
}

// hashBuffers are the read buffers of hashFile and inspect, reused: a
// build hashes every output it writes, thousands of files in a big fan-out.
var hashBuffers = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// hashFile returns the first 128 bits of the file's SHA-256, in hex, of
// the size bytes stat gave (reading them, it asks no more: a read that
// fills the last buffer is not followed by one that finds the end).
func hashFile(path string, size int64) (string, error) {
	fd, err := openRead(path)
	if err != nil {
		return "", err
	}
	defer fd.Close()
	buf := hashBuffers.Get().(*[64 << 10]byte)
	defer hashBuffers.Put(buf)
	h := sha256.New()
	if err := hashRest(h, fd, path, buf[:], size); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// hashRest hashes up to size more bytes of the open file, read into buf.
func hashRest(h hash.Hash, fd rawFile, path string, buf []byte, size int64) error {
	for size > 0 {
		n, err := fd.Read(buf[:min(size, int64(len(buf)))])
		if err != nil {
			return &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break // it shrank since: what it holds now
		}
		h.Write(buf[:n])
		size -= int64(n)
	}
	return nil
}

// inspect opens a file a command wrote, once: it stats it, runs check
// (when not nil) on its first bytes and, when hashed is set, hashes it (the
// log then takes the state, see wrote). bad says why the file cannot be the
// command's output, to follow its name: " is not a regular file", " is
// empty", or ": " and what check says. err is a
// file that could not be opened (a missing one: fs.ErrNotExist) or read.
func inspect(path string, check func(head []byte, size int64, r io.ReaderAt) error, hashed bool) (st fileState, bad string, err error) {
	fd, err := openRead(path)
	if err != nil {
		return st, "", err
	}
	defer fd.Close()
	regular, size, mtime, err := fd.stat()
	switch {
	case err != nil:
		return st, "", &fs.PathError{Op: "stat", Path: path, Err: err}
	case !regular:
		return st, " is not a regular file", nil
	case size == 0:
		return st, " is empty", nil
	}
	st = fileState{size: size, mtime: mtime}
	if check == nil && !hashed {
		return st, "", nil
	}
	buf := hashBuffers.Get().(*[64 << 10]byte)
	defer hashBuffers.Put(buf)
	n := 0
	for want := int(min(size, int64(len(buf)))); n < want; {
		k, err := fd.Read(buf[n:want])
		if err != nil {
			return st, "", &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if k == 0 {
			break
		}
		n += k
	}
	if check != nil {
		if err := check(buf[:n], size, fd); err != nil {
			return st, ": " + err.Error(), nil
		}
	}
	if hashed {
		h := sha256.New()
		h.Write(buf[:n])
		if err := hashRest(h, fd, path, buf[:], size-int64(n)); err != nil {
			return st, "", err
		}
		st.hash = hex.EncodeToString(h.Sum(nil)[:16])
	}
	return st, "", nil
}

// hashStrings hashes a list of strings unambiguously: each part as
// "<len>:<part>;", all in one buffer. Build logs and caches hold these
// hashes: the encoding stays.
func hashStrings(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p) + 12
	}
	buf := make([]byte, 0, n)
	for _, p := range parts {
		buf = strconv.AppendInt(buf, int64(len(p)), 10)
		buf = append(buf, ':')
		buf = append(buf, p...)
		buf = append(buf, ';')
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:16])
}

func (r *record) line() string {
	var b strings.Builder
	b.WriteString(r.name)
	b.WriteByte('\t')
	b.WriteString(r.key)
	b.WriteByte('\t')
	b.WriteString(strings.Join(r.tools, rs))
	b.WriteByte('\t')
	b.WriteString(r.cmd)
	b.WriteByte('\t')
	writeStates(&b, r.inputs)
	b.WriteByte('\t')
	writeStates(&b, r.outputs)
	if r.maxRSS > 0 || r.wall > 0 {
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(r.maxRSS, 10))
		b.WriteString(us)
		b.WriteString(strconv.FormatInt(r.wall, 10))
	}
	b.WriteByte('\n')
	return b.String()
}

func writeStates(b *strings.Builder, states []fileState) {
	for i, s := range states {
		if i > 0 {
			b.WriteString(rs)
		}
		b.WriteString(s.path)
		b.WriteString(us)
		b.WriteString(s.hash)
		b.WriteString(us)
		b.WriteString(strconv.FormatInt(s.size, 10))
		b.WriteString(us)
		b.WriteString(strconv.FormatInt(s.mtime, 10))
	}
}

func parseRecord(line string) *record {
	f := strings.Split(line, "\t")
	if len(f) != 6 && len(f) != 7 || f[0] == "" {
		return nil
	}
	r := &record{name: f[0], key: f[1], cmd: f[3]}
	if f[2] != "" {
		r.tools = strings.Split(f[2], rs)
	}
	var ok1, ok2 bool
	r.inputs, ok1 = parseStates(f[4])
	r.outputs, ok2 = parseStates(f[5])
	if !ok1 || !ok2 {
		return nil
	}
	if len(f) == 7 {
		u := strings.Split(f[6], us)
		if len(u) != 2 {
			return nil
		}
		var err1, err2 error
		r.maxRSS, err1 = strconv.ParseInt(u[0], 10, 64)
		r.wall, err2 = strconv.ParseInt(u[1], 10, 64)
		if err1 != nil || err2 != nil {
			return nil
		}
	}
	return r
}

func parseStates(s string) ([]fileState, bool) {
	if s == "" {
		return nil, true
	}
	items := strings.Split(s, rs)
	out := make([]fileState, len(items))
	for i, it := range items {
		p := strings.Split(it, us)
		if len(p) != 4 {
			return nil, false
		}
		size, err1 := strconv.ParseInt(p[2], 10, 64)
		mtime, err2 := strconv.ParseInt(p[3], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		out[i] = fileState{path: p[0], hash: p[1], size: size, mtime: mtime}
	}
	return out, true
}

func sortedNames(m map[string]*record) []string { return slices.Sorted(maps.Keys(m)) }
