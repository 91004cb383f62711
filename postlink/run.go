package postlink

import "io"

// IO is the world a run talks to besides the files it names.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Argv0 is the name the tool was invoked as, used for input parse
	// errors (LLVM prints those with argv[0]).
	Argv0 string
}

// Run performs one sycl-post-link invocation.
func Run(o *Options, rio IO) error {
	if err := o.Validate(); err != nil {
		return err
	}
	return errorf("splitting is not available yet")
}
