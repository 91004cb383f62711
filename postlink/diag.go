package postlink

import (
	"fmt"
	"io"
)

// ToolName is the name the reference prints in its own diagnostics
// ("sycl-post-link: ...", "sycl-post-link NOTE: ..."), whatever argv[0] is.
const ToolName = "sycl-post-link"

// Error is a diagnostic worded and prefixed exactly as the reference prints
// it; the command line writes Error() as one line to stderr and exits 1.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// errorf is the reference's error(): "sycl-post-link: <msg>".
func errorf(format string, args ...any) error {
	return &Error{Msg: ToolName + ": " + fmt.Sprintf(format, args...)}
}

// plainf is a message printed without any prefix (the command-line checks
// of main print "no actions specified…" and "error: -x can't be used…"
// this way).
func plainf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Diag receives the non-fatal messages of a run: notes and warnings. A nil
// writer drops them.
type Diag struct{ W io.Writer }

// Note prints "sycl-post-link NOTE: <msg>".
func (d Diag) Note(msg string) {
	if d.W != nil {
		fmt.Fprintf(d.W, "%s NOTE: %s\n", ToolName, msg)
	}
}

// Warning prints LLVM's WithColor::warning() form, "warning: <msg>", which
// the splitter uses for undefined functions.
func (d Diag) Warning(msg string) {
	if d.W != nil {
		fmt.Fprintf(d.W, "warning: %s\n", msg)
	}
}

// ToolWarning prints the tool's own warning form, "sycl-post-link WARNING: <msg>".
func (d Diag) ToolWarning(msg string) {
	if d.W != nil {
		fmt.Fprintf(d.W, "%s WARNING: %s\n", ToolName, msg)
	}
}
