package tools

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// VersionCache captures tool versions and remembers them by the tool
// file's identity (real path, size, modification time), so a build runs no
// "--version" command unless a tool was installed or updated since. It
// remembers the scans of device inputs the same way (ScanIR).
type VersionCache struct {
	file    string
	mu      sync.Mutex
	entries map[string]versionEntry
	dirty   bool
}

type versionEntry struct {
	size, mtime int64
	version     string
}

// LoadVersionCache reads the cache kept in file ("" keeps it in memory
// only). A missing or unreadable file is an empty cache.
func LoadVersionCache(file string) *VersionCache {
	c := &VersionCache{file: file, entries: map[string]versionEntry{}}
	if file == "" {
		return c
	}
	f, err := os.Open(file)
	if err != nil {
		return c
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 4 {
			continue
		}
		size, err1 := strconv.ParseInt(p[1], 10, 64)
		mtime, err2 := strconv.ParseInt(p[2], 10, 64)
		if err1 == nil && err2 == nil {
			c.entries[p[0]] = versionEntry{size, mtime, p[3]}
		}
	}
	return c
}

// Save writes the cache back if it changed.
func (c *VersionCache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" || !c.dirty {
		return nil
	}
	var b strings.Builder
	for _, k := range sortedKeys(c.entries) {
		e := c.entries[k]
		fmt.Fprintf(&b, "%s\t%d\t%d\t%s\n", k, e.size, e.mtime, e.version)
	}
	if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(c.file, func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err }); err != nil {
		return err
	}
	c.dirty = false
	return nil
}

// Version returns the version of the tool at path (a name is looked up on
// PATH): its version output, or, for a tool that will not print one, the
// hash of its executable.
func (c *VersionCache) Version(role configs.Tool, path string) (string, error) {
	exe, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", err
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	e, ok := c.entries[real]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() {
		return e.version, nil
	}
	v := queryVersion(role, exe)
	if v == "" {
		h, err := hashExecutable(real)
		if err != nil {
			return "", err
		}
		v = "sha256:" + h
	}
	c.mu.Lock()
	c.entries[real] = versionEntry{fi.Size(), fi.ModTime().UnixNano(), v}
	c.dirty = true
	c.mu.Unlock()
	return v, nil
}

// SelfVersion identifies the running sycbuild executable for the keys of
// in-process actions: a rebuilt sycbuild may split or wrap differently.
func (c *VersionCache) SelfVersion() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	e, ok := c.entries[real]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() {
		return e.version, nil
	}
	h, err := hashExecutable(real)
	if err != nil {
		return "", err
	}
	v := "sycbuild sha256:" + h
	c.mu.Lock()
	c.entries[real] = versionEntry{fi.Size(), fi.ModTime().UnixNano(), v}
	c.dirty = true
	c.mu.Unlock()
	return v, nil
}

var spaces = regexp.MustCompile(`\s+`)

// queryVersion runs the tool's version query and returns its output on
// one line ("" if it fails). ocloc has no --version; its driver version
// comes from "ocloc query", which writes a file into the working
// directory, so it runs in a directory of its own.
func queryVersion(role configs.Tool, exe string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	var dir string
	if role == configs.ToolOcloc {
		var err error
		if dir, err = os.MkdirTemp("", "sycbuild-ocloc-version-"); err != nil {
			return ""
		}
		defer os.RemoveAll(dir)
		// It runs elsewhere: a relative path ("./ocloc") must not be.
		if exe, err = filepath.Abs(exe); err != nil {
			return ""
		}
		cmd = exec.CommandContext(ctx, exe, "query", "OCL_DRIVER_VERSION")
		cmd.Dir = dir
	} else {
		cmd = exec.CommandContext(ctx, exe, "--version")
	}
	dieWithParent(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return ""
	}
	if role == configs.ToolOcloc {
		b, err := os.ReadFile(filepath.Join(dir, "OCL_DRIVER_VERSION"))
		if err != nil {
			return ""
		}
		out = append([]byte("ocloc driver "), b...)
	}
	v := strings.TrimSpace(spaces.ReplaceAllString(string(out), " "))
	if len(v) > 400 {
		v = v[:400]
	}
	return v
}

var llvmVersionRE = regexp.MustCompile(`LLVM version (\d+)\.`)

// llvmMajor returns the LLVM major version an LLVM tool's --version
// reports (0 if none).
func llvmMajor(version string) int {
	m := llvmVersionRE.FindStringSubmatch(version)
	if m == nil {
		return 0
	}
	v, _ := strconv.Atoi(m[1])
	return v
}

func hashExecutable(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
