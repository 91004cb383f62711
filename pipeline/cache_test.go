package pipeline_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// The shared caches end to end: real builds of the quickstart's device code
// (split per kernel, spir64: llvm-spirv-15 → spirv-val) in
// several project directories, against a real bazel-remote.

const cacheConfig = `inputs: [device.ll]
split: per_kernel
tools: {llvm-spirv: ./llvm-spirv-standin}
targets:
  - kind: spir64
    spirv: translator
`

// llvmSPIRVStandIn runs llvm-spirv-15, counting its compiles (by their
// input, a module's .bc) in compiles.log; when the file
// kill-on-compile names a process, its first compile kills it (a cache
// server dying mid-build).
const llvmSPIRVStandIn = `#!/bin/sh
for a; do
  case "$a" in
  *.bc)
    echo "$a" >> compiles.log
    if [ -f kill-on-compile ]; then kill -9 "$(cat kill-on-compile)"; rm -f kill-on-compile; fi ;;
  esac
done
exec llvm-spirv-15 "$@"
`

func cacheProject(t *testing.T, name string) *project {
	p := newProject(t, name, cacheConfig, "device.ll")
	p.write("llvm-spirv-standin", llvmSPIRVStandIn)
	return p
}

// compiles is how many modules the stand-in compiled.
func (p *project) compiles() int {
	b, err := os.ReadFile(filepath.Join(p.dir, "compiles.log"))
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}

func needCacheTools(t *testing.T) {
	needTools(t, "llvm-spirv-15", "spirv-val")
}

// TestLocalCacheSharedByCheckouts: a clean build in a second directory
// runs no compiler: every module job is restored from the shared cache,
// and the object is the same; two builds at once share the cache safely.
func TestLocalCacheSharedByCheckouts(t *testing.T) {
	needCacheTools(t)
	shared := t.TempDir()
	a := cacheProject(t, "a")
	if _, s := a.build("-cache-dir", shared); s.jobsRan != 4 || a.compiles() != 4 {
		t.Fatalf("first build: %+v, %d compiles", s, a.compiles())
	}
	b := cacheProject(t, "b")
	stderr, s := b.build("-cache-dir", shared, "-explain")
	if b.compiles() != 0 || s.localHits != 4 || s.jobsRan != 0 {
		t.Errorf("second checkout: %d compiles, %+v\n%s", b.compiles(), s, stderr)
	}
	if !strings.Contains(stderr, "sycbuild explain: out/spir64/module_0.spv: local hit") {
		t.Errorf("-explain does not say local hit:\n%s", stderr)
	}
	sameFiles(t, "restored", a.files(), b.files())

	// Two builds at once in two more directories, on the same cache.
	var wg sync.WaitGroup
	projects := []*project{cacheProject(t, "c"), cacheProject(t, "d")}
	codes := make([]int, 2)
	outs := make([]string, 2)
	for i, p := range projects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, outs[i], codes[i] = p.run("-cache-dir", shared)
		}()
	}
	wg.Wait()
	for i, p := range projects {
		if codes[i] != 0 {
			t.Fatalf("concurrent build %d: exit %d\n%s", i, codes[i], outs[i])
		}
		sameFiles(t, "concurrent "+strconv.Itoa(i), a.files(), p.files())
	}
}

// TestRemoteCache: a clean build with an empty local cache and a warm
// bazel-remote runs no compiler; -explain says remote hit; a read-only
// client never writes to the server.
func TestRemoteCache(t *testing.T) {
	needCacheTools(t)
	srv := testenv.StartBazelRemote(t)
	ro := cacheProject(t, "readonly")
	ro.build("-remote-cache", srv.URL, "-remote-cache-read-only")
	if n := storeFiles(t, srv.Dir); n != 0 {
		t.Errorf("a read-only build wrote %d files to the server", n)
	}
	a := cacheProject(t, "a")
	a.build("-remote-cache", srv.URL)
	b := cacheProject(t, "b")
	stderr, s := b.build("-remote-cache", srv.URL, "-cache-dir", t.TempDir(), "-explain")
	if b.compiles() != 0 || s.remoteHits != 4 {
		t.Errorf("warm remote: %d compiles, %+v\n%s", b.compiles(), s, stderr)
	}
	if !strings.Contains(stderr, "local miss") && !strings.Contains(stderr, "remote hit") {
		t.Errorf("-explain says nothing of the remote cache:\n%s", stderr)
	}
	sameFiles(t, "from the remote cache", a.files(), b.files())
}

// TestRemoteCacheCorrupted: blobs corrupted on the server are misses with a
// warning, never outputs: the build recompiles and its object is right.
func TestRemoteCacheCorrupted(t *testing.T) {
	needCacheTools(t)
	srv := testenv.StartBazelRemote(t, "--storage_mode", "uncompressed")
	a := cacheProject(t, "a")
	a.build("-remote-cache", srv.URL)
	n := 0
	filepath.Walk(filepath.Join(srv.Dir, "cas.v2"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && fi.Size() > 16 {
			b, _ := os.ReadFile(p)
			b[len(b)/2] ^= 0xff
			os.WriteFile(p, b, 0o644)
			n++
		}
		return nil
	})
	if n == 0 {
		t.Fatalf("found no blob to corrupt under %s", srv.Dir)
	}
	b := cacheProject(t, "b")
	stderr, _ := b.build("-remote-cache", srv.URL)
	if !strings.Contains(stderr, "warning") {
		t.Errorf("no warning about the corrupted blobs:\n%s", stderr)
	}
	if b.compiles() == 0 {
		t.Errorf("nothing was recompiled")
	}
	sameFiles(t, "after corruption", a.files(), b.files())
}

// TestRemoteCacheKilledMidBuild: the server dies during the build (killed
// by the first compile); the build finishes locally with one warning.
func TestRemoteCacheKilledMidBuild(t *testing.T) {
	needCacheTools(t)
	srv := testenv.StartBazelRemote(t)
	ref := cacheProject(t, "ref")
	ref.build()
	p := cacheProject(t, "p")
	p.write("kill-on-compile", strconv.Itoa(srvPid(t, srv)))
	stderr, _ := p.build("-remote-cache", srv.URL, "-remote-timeout", "5s", "-j", "1")
	if p.exists("kill-on-compile") {
		t.Fatalf("the server was not killed (%d compiles):\n%s", p.compiles(), stderr)
	}
	if w := strings.Count(stderr, "warning: remote cache"); w != 1 {
		t.Errorf("%d warnings about the remote cache, want 1:\n%s", w, stderr)
	}
	sameFiles(t, "server killed", ref.files(), p.files())
}

// storeFiles counts the files bazel-remote keeps in its store.
func storeFiles(t *testing.T, dir string) int {
	n := 0
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && (strings.Contains(p, "/ac.v2/") || strings.Contains(p, "/cas.v2/")) {
			n++
		}
		return nil
	})
	return n
}

// srvPid finds the server's process id by its gRPC address.
func srvPid(t *testing.T, srv *testenv.BazelRemote) int {
	out, err := exec.Command("pgrep", "-f", "grpc_address "+srv.Addr).Output()
	if err != nil {
		t.Fatalf("pgrep: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
