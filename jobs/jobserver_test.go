package jobs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestJobserverAuth(t *testing.T) {
	for _, tc := range []struct{ flags, want string }{
		{"", ""},
		{" -j4 --jobserver-auth=3,4", "3,4"},
		{"kw -j8 --jobserver-auth=fifo:/tmp/GMfifo123 -- X=1", "fifo:/tmp/GMfifo123"},
		{"--jobserver-fds=5,6 -j", "5,6"},
		{"--jobserver-fds=5,6 --jobserver-auth=7,8", "7,8"},
	} {
		if got := JobserverAuth(tc.flags); got != tc.want {
			t.Errorf("JobserverAuth(%q) = %q, want %q", tc.flags, got, tc.want)
		}
	}
	for _, auth := range []string{"x", "3", "-1,2", "999,998", "fifo:/nonexistent/fifo"} {
		if _, err := OpenJobserver(auth); err == nil {
			t.Errorf("OpenJobserver(%q) succeeded", auth)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "plain")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenJobserver(fmt.Sprintf("%d,%d", f.Fd(), f.Fd())); err == nil || err.Error() != fmt.Sprintf("jobserver file descriptor %d is not a pipe", f.Fd()) {
		t.Errorf("a regular file as jobserver: %v", err)
	}
}

// drain checks that exactly n tokens are in the pipe: it writes a sentinel
// after them and reads n+1 bytes.
func drain(t *testing.T, r, w *os.File, n int) {
	t.Helper()
	w.Write([]byte{'X'})
	got := make(chan []byte)
	go func() {
		buf := make([]byte, n+1)
		k := 0
		for k < n+1 {
			m, err := r.Read(buf[k:])
			if err != nil {
				break
			}
			k += m
		}
		got <- buf[:k]
	}()
	select {
	case b := <-got:
		want := append([]byte(nil), make([]byte, n)...)
		for i := range want {
			want[i] = '+'
		}
		want = append(want, 'X')
		if string(b) != string(want) {
			t.Errorf("jobserver pipe holds %q after the build, want %q", b, want)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("tokens were not returned to the jobserver")
	}
}

func TestJobserverPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.Write([]byte("+++")) // make -j4: 3 tokens + the implicit one
	pool, err := OpenJobserver(fmt.Sprintf("%d,%d", r.Fd(), w.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	if peak := peakConcurrency(t, pool, 16, 4); peak != 4 {
		t.Errorf("peak concurrency %d under a 4-job jobserver", peak)
	}
	pool.Close()
	drain(t, r, w, 3)
}

func TestJobserverFifo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal("mkfifo:", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0) // make's end
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write([]byte("+")) // make -j2
	pool, err := OpenJobserver("fifo:" + path)
	if err != nil {
		t.Fatal(err)
	}
	if peak := peakConcurrency(t, pool, 16, 2); peak != 2 {
		t.Errorf("peak concurrency %d under a 2-job jobserver", peak)
	}
	pool.Close()
	drain(t, f, f, 1)
}

// TestJobserverCancel: a waiter that gives up does not keep a token.
func TestJobserverCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	pool, err := OpenJobserver(fmt.Sprintf("%d,%d", r.Fd(), w.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := pool.Acquire(context.Background()) // the implicit token
	if err != nil || !tok.implicit {
		t.Fatalf("first Acquire: %+v %v", tok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := pool.Acquire(ctx); err == nil {
		t.Fatal("Acquire with no token free succeeded")
	}
	w.Write([]byte("+")) // arrives after the waiter left: must go back
	time.Sleep(50 * time.Millisecond)
	pool.Release(tok)
	pool.Close()
	drain(t, r, w, 1)
}
