// Package llvmforeach is the command line of sycbuild's llvm-foreach: the
// DPC++ tool's options and messages over package foreach, plus
// --deterministic.
package llvmforeach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/foreach"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/jobs"
)

const overview = `llvm-foreach: runs a command once per line of file lists.
Each --in-file-list pairs with the --in-replace of the same rank; the command
runs once per line, with each placeholder replaced by that line of its list.

Better than the reference llvm-foreach:
  - waiting blocks on the children (no polling: ~0% CPU while they run);
  - each child's stdout/stderr is captured and printed whole when it ends, so
    parallel output never interleaves mid-line;
  - a failing child's command line is printed with its exit status;
  - --deterministic names outputs <out-dir>/<stem>_<index>.<ext>, the same on
    every run, instead of random names;
  - SIGINT/SIGTERM stop all children and remove the outputs not finished; a
    failed child's output is removed and --out-file-list is written only when
    every child succeeded;
  - every occurrence of every placeholder is replaced, and an unused or empty
    placeholder is an error;
  - the exit code is the last non-zero child exit code in list order, not
    the last one observed.`

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild llvm-foreach ...).
const Name = "llvm-foreach"

// Main runs llvm-foreach.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	s := clopt.New(argv0, overview, "[options] -- <command> [args...]")
	s.Category = "llvm-foreach options"
	inLists := s.List("in-file-list", "filename", "Input list of file names, one per line (\"-\" for standard input)")
	inReplace := s.List("in-replace", "R", "Placeholder in the command's arguments replaced by the lines of the --in-file-list of the same rank")
	outReplace := s.String("out-replace", "R", "", "Placeholder in the command's arguments replaced by a new output file per command")
	outDir := s.String("out-dir", "dir", "", "Directory of the output files (default: the system's temporary directory)")
	outExt := s.String("out-ext", "ext", "out", "Extension of the output files")
	outList := s.String("out-file-list", "filename", "", "Write the output files' names, one per line, in list order")
	outIncrement := s.String("out-increment", "R", "", "An argument holding R gets the suffix _<n> in the n-th command (n > 0)")
	nJobs := s.String("jobs", "n", "1", "Run up to n commands at once")
	s.Alias("j", "jobs")
	deterministic := s.Bool("deterministic", "Name the output files <out-dir>/<stem>_<index>.<ext> (needs --out-dir)")
	if err := s.Parse(args, stdio.Out); err != nil {
		return clopt.Report(stdio.Err, err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Err, "%s: "+format+"\n", append([]any{argv0}, a...)...)
		return 1
	}
	switch {
	case len(*inLists) == 0:
		return fail("for the --in-file-list option: must be specified at least once!")
	case len(*inReplace) == 0:
		return fail("for the --in-replace option: must be specified at least once!")
	case len(s.Positional()) == 0:
		return fail("Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: %s --help", argv0)
	case len(*inLists) != len(*inReplace):
		return fail("Number of input file lists and input path replaces don't match.")
	}
	n, err := strconv.ParseUint(*nJobs, 10, 31)
	if err != nil {
		return fail("for the --jobs option: '%s' value invalid for uint argument!", *nJobs)
	}
	if n == 0 {
		return fail("Number of parallel threads should be a positive integer")
	}

	spec := &foreach.Spec{
		Command:       s.PositionalValues(),
		OutReplace:    *outReplace,
		OutDir:        *outDir,
		OutExt:        *outExt,
		OutIncrement:  *outIncrement,
		OutFileList:   *outList,
		Deterministic: *deterministic,
	}
	if spec.Lists, err = readLists(*inLists, *inReplace, stdio.In); err != nil {
		return fail("%v", err)
	}

	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		if sig, ok := <-sigs; ok {
			stop(interrupted{sig.(syscall.Signal)})
		}
	}()

	res, err := foreach.Run(ctx, spec, foreach.Options{
		Pool:   jobs.NewPool(int(n)),
		Stdout: stdio.Out,
		Stderr: stdio.Err,
		Name:   argv0,
	})
	var intr interrupted
	if errors.As(err, &intr) {
		fmt.Fprintf(stdio.Err, "%s: interrupted (%v): stopped the commands and removed their unfinished outputs\n", argv0, intr.sig)
		return 128 + int(intr.sig)
	}
	if err != nil {
		return fail("%v", err)
	}
	return res.ExitCode
}

// readLists reads the --in-file-list lists ("-" is standard input, which
// only one may be), each with the --in-replace placeholder of its rank.
func readLists(names, replaces []clopt.Arg, stdin io.Reader) ([]foreach.List, error) {
	var lists []foreach.List
	stdinUsed := false
	for i, l := range names {
		var items []string
		var err error
		if l.Value == "-" {
			if stdinUsed {
				return nil, errors.New("standard input (\"-\") can be only one of the input file lists")
			}
			stdinUsed = true
			items, err = filetable.ReadList(stdin)
		} else {
			items, err = filetable.ReadListFile(l.Value)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read the input file list: %w", err)
		}
		lists = append(lists, foreach.List{Replace: replaces[i].Value, Items: items, Name: l.Value})
	}
	return lists, nil
}

// interrupted is the cancellation cause when a signal stops the run.
type interrupted struct{ sig syscall.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.sig.String() }
