package testenv

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BazelRemotePath returns the bazel-remote binary that
// scripts/install-toolchain.sh builds into .cache/bin (or one on PATH), or
// skips (fails in CI) when there is none.
func BazelRemotePath(t testing.TB) string {
	t.Helper()
	p := filepath.Join(RepoRoot(t), ".cache", "bin", "bazel-remote")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath("bazel-remote"); err == nil {
		return p
	}
	Missing(t, "bazel-remote (.cache/bin/bazel-remote)")
	return ""
}

// BazelRemote is a bazel-remote server started for a test, serving gRPC
// on a loopback port and keeping its store in a temporary directory.
type BazelRemote struct {
	Dir  string // the server's --dir
	Addr string // the gRPC address, HOST:PORT
	URL  string // grpc://Addr

	cmd    *exec.Cmd
	out    *syncBuffer
	once   sync.Once
	exited chan struct{}
}

// StartBazelRemote starts bazel-remote with a 1 GiB store in a temporary
// directory, on free loopback ports, with args added to its command line
// (e.g. "--storage_mode", "uncompressed"), and waits until it accepts
// connections. The server is stopped when the test ends.
func StartBazelRemote(t testing.TB, args ...string) *BazelRemote {
	t.Helper()
	bin := BazelRemotePath(t)
	s := &BazelRemote{Dir: t.TempDir(), out: &syncBuffer{}, exited: make(chan struct{})}
	grpcPort, httpPort := freePort(t), freePort(t)
	s.Addr = "127.0.0.1:" + strconv.Itoa(grpcPort)
	s.URL = "grpc://" + s.Addr
	argv := append([]string{
		"--dir", s.Dir, "--max_size", "1",
		"--grpc_address", s.Addr,
		"--http_address", "127.0.0.1:" + strconv.Itoa(httpPort),
	}, args...)
	s.cmd = exec.Command(bin, argv...)
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting bazel-remote: %v", err)
	}
	go func() { s.cmd.Wait(); close(s.exited) }()
	t.Cleanup(s.Stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.exited:
			t.Fatalf("bazel-remote exited at start:\n%s", s.out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
			c.Close()
			return s
		}
		if time.Now().After(deadline) {
			s.Stop()
			t.Fatalf("bazel-remote did not listen on %s within 30 s:\n%s", s.Addr, s.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (as a crash would) and waits for it to exit.
func (s *BazelRemote) Stop() {
	s.once.Do(func() {
		s.cmd.Process.Kill()
		<-s.exited
	})
}

// Signal sends sig to the server: syscall.SIGSTOP makes it a server that
// holds its connections and answers nothing, as a stalled one does, until
// syscall.SIGCONT.
func (s *BazelRemote) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// Log returns what the server printed.
func (s *BazelRemote) Log() string { return s.out.String() }

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// syncBuffer is a bytes.Buffer safe for a process's two output streams.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
