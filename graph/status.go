package graph

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/term"
)

// Progress prints what the build does. On a terminal it keeps one status
// line, "[done/total] what", rewritten in place; otherwise it prints one
// plain line per action or job that ran. Everything else (command lines
// with -v, tool output, failures, explanations) goes through it too, so
// messages never collide with the status line. It is an Observer.
type Progress struct {
	w       io.Writer
	tty     bool
	width   int
	mu      sync.Mutex
	total   int
	done    int
	current string // the status line's text while it is shown
	desc    string // what the status line shows, without the count
	// pending counts the fan-outs whose jobs are not in total yet; while
	// there are some, plain output is held (in order) so that every line
	// shows the final total.
	pending int
	held    []heldLine
}

// heldLine is a plain progress line ("[n/total] desc", n > 0) or a
// message (n == 0) held until the total is known.
type heldLine struct {
	n    int
	text string
}

// countsPending changes the number of fan-outs not counted yet; when none
// is left, the held output goes out.
func (p *Progress) countsPending(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending += n
	if p.pending <= 0 {
		p.flush()
	}
}

// flush prints the held output with the total as it is now; p.mu is held.
func (p *Progress) flush() {
	for _, h := range p.held {
		if h.n > 0 {
			fmt.Fprintf(p.w, "[%d/%d] %s\n", h.n, p.total, h.text)
		} else {
			io.WriteString(p.w, h.text)
		}
	}
	p.held = nil
}

// NewProgress returns a progress printer writing to w; tty selects the
// single rewritten status line.
func NewProgress(w io.Writer, tty bool) *Progress {
	width := 80
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 20 {
		width = c
	}
	return &Progress{w: w, tty: tty, width: width}
}

// IsTerminal reports whether f is a terminal that can show a status line
// (a terminal, and TERM is not "dumb"). /dev/null is a character device
// but no terminal: output sent there gets the plain lines.
func IsTerminal(f *os.File) bool {
	return os.Getenv("TERM") != "dumb" && term.IsTerminal(int(f.Fd()))
}

// Planned changes the number of things to do: the actions at the start,
// a fan-out's jobs as soon as the table that decides them is written.
func (p *Progress) Planned(n int) {
	p.mu.Lock()
	p.total += n
	p.mu.Unlock()
}

// OutOfDate does nothing: Explain's observer prints the reasons.
func (p *Progress) OutOfDate(string, []string) {}

// Started shows the action or job that starts running on the status line.
func (p *Progress) Started(e Event) {
	if !p.tty || e.Kind == KindFanout || e.Kind == KindCommand {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.show(e.Desc)
}

// Finished counts one action or job done, and one found up to date out of
// the total: the progress counts what runs. One that ran non-terminals
// print as a line. Then come its failure, or what it printed.
func (p *Progress) Finished(e Event) {
	if e.Kind == KindCommand || e.Outcome == NotRun {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Outcome == UpToDate && e.Err == nil && len(e.Output) == 0 {
		p.total--
		if p.tty && p.desc != "" {
			p.show(p.desc)
		}
		return
	}
	p.done++
	if p.tty {
		p.show(e.Desc)
	} else if p.pending > 0 {
		p.held = append(p.held, heldLine{p.done, e.Desc})
	} else {
		fmt.Fprintf(p.w, "[%d/%d] %s\n", p.done, p.total, e.Desc)
	}
	var ce *CommandError
	switch {
	case errors.As(e.Err, &ce):
		p.print(ce.Error())
	case e.Err != nil:
		p.print(fmt.Sprintf("FAILED: %s: %v", e.Desc, e.Err))
	case len(e.Output) > 0:
		p.print(string(e.Output))
	}
}

// Message prints text on lines of its own.
func (p *Progress) Message(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.print(text)
}

// Summary ends the status line.
func (p *Progress) Summary(*Result) { p.Close() }

// Printf prints a message on lines of its own.
func (p *Progress) Printf(format string, args ...any) {
	p.Message(fmt.Sprintf(format, args...))
}

// print prints msg on lines of its own; p.mu is held.
func (p *Progress) print(msg string) {
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	if !p.tty && p.pending > 0 {
		p.held = append(p.held, heldLine{text: msg})
		return
	}
	p.clear()
	io.WriteString(p.w, msg)
	p.redraw()
}

// Close ends the status line.
func (p *Progress) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending = 0 // fan-outs that never started: their jobs are not counted
	p.flush()
	if p.tty && p.current != "" {
		io.WriteString(p.w, "\n")
		p.current = ""
	}
}

func (p *Progress) show(desc string) {
	p.desc = desc
	line := fmt.Sprintf("[%d/%d] %s", p.done, p.total, desc)
	if len(line) > p.width-1 {
		line = line[:p.width-4] + "..."
	}
	p.current = line
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
}

func (p *Progress) clear() {
	if p.tty && p.current != "" {
		io.WriteString(p.w, "\r\x1b[K")
	}
}

func (p *Progress) redraw() {
	if p.tty && p.current != "" {
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.current)
	}
}
