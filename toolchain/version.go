package toolchain

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

// Version returns the identity of the tool at path (a name is looked up on
// PATH): its version output (when it prints one) and the digest of its
// executable, with, for a script, the digest of its "#!" interpreter.
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
	var v string
	// An entry of an older sycbuild holds no content digest: it is made
	// again.
	if ok && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() && strings.Contains(e.version, "sha256:") {
		v = e.version
	} else {
		// The identity is what the tool says it is and what it holds: a
		// wrapper script may change what it does without changing what
		// its --version prints.
		h, err := hashExecutable(real)
		if err != nil {
			return "", err
		}
		v = "sha256:" + h
		if text := queryVersion(role, exe); text != "" {
			v = text + "; " + v
		}
		c.mu.Lock()
		c.entries[real] = versionEntry{fi.Size(), fi.ModTime().UnixNano(), v}
		c.dirty = true
		c.mu.Unlock()
	}
	// A script's interpreter is part of what it does, and may change
	// while the script does not: its digest is looked up on every call.
	if interp := interpreter(real); interp != "" {
		h, err := c.contentDigest(interp)
		if err != nil {
			return "", err
		}
		v += "; interpreter " + interp + " sha256:" + h
	}
	return v, nil
}

// contentDigest returns the digest of the file at the real path p,
// remembered by its size and modification time.
func (c *VersionCache) contentDigest(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	key := "content:" + p
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() {
		return e.version, nil
	}
	h, err := hashExecutable(p)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.entries[key] = versionEntry{fi.Size(), fi.ModTime().UnixNano(), h}
	c.dirty = true
	c.mu.Unlock()
	return h, nil
}

// interpreter returns the real path of the program a script's "#!" line
// names ("/usr/bin/env python3": python3 as PATH finds it), or "" for a
// file that is not a script or whose interpreter cannot be found.
func interpreter(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	f.Close()
	line, ok := strings.CutPrefix(string(head[:n]), "#!")
	if !ok {
		return ""
	}
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		for _, a := range fields[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
				prog = a
				break
			}
		}
	}
	exe, err := exec.LookPath(prog)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	if real, err = filepath.Abs(real); err != nil {
		return ""
	}
	return real
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
	argv := []string{exe, "--version"}
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
		argv = []string{exe, "query", "OCL_DRIVER_VERSION"}
	}
	out, err := combinedOutput(ctx, dir, argv...)
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
