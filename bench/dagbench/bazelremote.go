package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// bazelRemote is a bazel-remote server on loopback ports, keeping its store
// in dir.
type bazelRemote struct {
	url    string // grpc://127.0.0.1:PORT
	cmd    *exec.Cmd
	out    *lockedBuffer
	exited chan struct{}
}

// bazelRemotePath resolves the -bazel-remote flag: a relative path is taken
// relative to the module's root (where go.mod is).
func bazelRemotePath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOMOD: %v", err)
		}
		mod := strings.TrimSpace(string(out))
		if mod == "" || mod == os.DevNull {
			return "", fmt.Errorf("bazel-remote %s: not in the module (run dagbench from the repository)", p)
		}
		p = filepath.Join(filepath.Dir(mod), p)
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("bazel-remote: %v (scripts/install-toolchain.sh builds it)", err)
	}
	return p, nil
}

// startBazelRemote starts bin with a 1 GiB store in dir on free loopback
// ports and waits until it accepts connections.
func startBazelRemote(bin, dir string) (*bazelRemote, error) {
	grpcPort, err := freePort()
	if err != nil {
		return nil, err
	}
	httpPort, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(grpcPort)
	s := &bazelRemote{url: "grpc://" + addr, out: &lockedBuffer{}, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, "--dir", dir, "--max_size", "1",
		"--grpc_address", addr, "--http_address", "127.0.0.1:"+strconv.Itoa(httpPort))
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting bazel-remote: %v", err)
	}
	go func() { s.cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.exited:
			return nil, fmt.Errorf("bazel-remote exited at start:\n%s", s.out)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return s, nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("bazel-remote did not listen on %s within 30 s:\n%s", addr, s.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop asks the server to end (SIGTERM), kills it if it has not within
// 10 s, and waits for it.
func (s *bazelRemote) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer is a bytes.Buffer safe for a process's two output streams.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
