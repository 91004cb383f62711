package graph

import (
	"bytes"
	"os"
	"testing"
)

// TestProgress: the status line on a terminal, a line per action that ran
// elsewhere; an action found up to date leaves the total (the progress
// counts what runs).
func TestProgress(t *testing.T) {
	var tty, plain bytes.Buffer
	for _, p := range []*Progress{NewProgress(&tty, true), NewProgress(&plain, false)} {
		p.width = 40
		p.Planned(2)
		p.Started(Event{Desc: "[spir64] sycl-post-link"})
		p.Finished(Event{Desc: "[spir64] sycl-post-link", Outcome: Ran})
		p.Printf("a message")
		p.Started(Event{Desc: "a description much longer than the terminal is wide"})
		p.Finished(Event{Desc: "up to date", Outcome: UpToDate})
		p.Close()
	}
	wantTTY := "\r[0/2] [spir64] sycl-post-link\x1b[K" +
		"\r[1/2] [spir64] sycl-post-link\x1b[K" +
		"\r\x1b[Ka message\n\r[1/2] [spir64] sycl-post-link\x1b[K" +
		"\r[1/2] a description much longer than...\x1b[K" +
		"\r[1/1] a description much longer than...\x1b[K\n"
	if tty.String() != wantTTY {
		t.Errorf("terminal:\n%q\nwant\n%q", tty.String(), wantTTY)
	}
	if want := "[1/2] [spir64] sycl-post-link\na message\n"; plain.String() != want {
		t.Errorf("plain:\n%q\nwant\n%q", plain.String(), want)
	}
}

// TestIsTerminal: /dev/null is a character device but no terminal; a
// pseudo-terminal is one.
func TestIsTerminal(t *testing.T) {
	t.Setenv("TERM", "xterm")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if IsTerminal(null) {
		t.Errorf("IsTerminal(%s) = true", os.DevNull)
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to test with: %v", err)
	}
	defer pty.Close()
	if !IsTerminal(pty) {
		t.Error("IsTerminal(/dev/ptmx) = false")
	}
	t.Setenv("TERM", "dumb")
	if IsTerminal(pty) {
		t.Error("IsTerminal with TERM=dumb = true")
	}
}
