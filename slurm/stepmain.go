package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/sycbuild/sycbuild/jobs"
)

// StepCommand is the name of the command by which sycbuild runs StepMain
// ("sycbuild slurm-step …"): what a Runner's step runs on its node.
const StepCommand = "slurm-step"

// stepStart is the first line of a step's result file, written before its
// commands start: which step it is and where it runs.
type stepStart struct {
	ID   string `json:"id"`   // "JOB.STEP"
	Node string `json:"node"` // the node's name in Slurm
}

// stepEnd is the second line, written once the commands ended: how each
// ended and what it cost, measured on the node as jobs measures it here.
type stepEnd struct {
	Cmds []cmdResult `json:"cmds"`
	// Failed is the index of the command whose failure is the step's (the
	// first that failed of itself, not of a broken pipe); -1 when none
	// failed.
	Failed int `json:"failed"`
}

type cmdResult struct {
	Started bool   `json:"started"`
	Error   string `json:"error,omitempty"` // why it did not start
	Exit    int    `json:"exit"`            // its exit status; -1 when a signal ended it
	Signal  int    `json:"signal,omitempty"`
	Core    bool   `json:"core,omitempty"`
	User    int64  `json:"user_ns"`
	System  int64  `json:"system_ns"`
	MaxRSS  int64  `json:"maxrss"`
	Wall    int64  `json:"wall_ns"`
}

// status is what os.ProcessState.String says of the command's end, so
// that a failure on a node reads as it reads here.
func (r cmdResult) status() string {
	if r.Signal > 0 {
		s := "signal: " + syscall.Signal(r.Signal).String()
		if r.Core {
			s += " (core dumped)"
		}
		return s
	}
	return "exit status " + strconv.Itoa(r.Exit)
}

// code is the exit status StepMain ends with for the command: srun passes
// it on.
func (r cmdResult) code() int {
	switch {
	case !r.Started:
		return 127
	case r.Signal > 0:
		return 128 + r.Signal
	}
	return r.Exit
}

// stepArgs are StepMain's arguments for cmds whose results go to result:
// the file, then each command as its number of words, the program to run
// ("" for the first word's) and the words.
func stepArgs(result string, cmds []*jobs.Command) []string {
	args := []string{result}
	for _, c := range cmds {
		args = append(args, strconv.Itoa(len(c.Argv)), c.Path)
		args = append(args, c.Argv...)
	}
	return args
}

// parseStepArgs reads stepArgs.
func parseStepArgs(args []string) (result string, cmds []*jobs.Command, err error) {
	if len(args) < 1 {
		return "", nil, errors.New("no result file")
	}
	result, args = args[0], args[1:]
	for len(args) > 0 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || len(args) < 2+n {
			return "", nil, fmt.Errorf("command %d: not a word count and as many words: %q", len(cmds), args)
		}
		cmds = append(cmds, &jobs.Command{Path: args[1], Argv: args[2 : 2+n]})
		args = args[2+n:]
	}
	if len(cmds) == 0 {
		return "", nil, errors.New("no command")
	}
	return result, cmds, nil
}

// StepMain runs on a node, as a step a Runner started: it writes where it
// runs into the result file its arguments name, runs their commands (a
// pipeline when there are several) with this process's standard input,
// output and error, and appends how each ended and what it cost. It ends
// with the exit status of the command whose failure is the step's, 128 +
// the signal that ended that command, 127 when it could not start, or 2
// for arguments it cannot read.
func StepMain(args []string, stderr io.Writer) int {
	result, cmds, err := parseStepArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "sycbuild %s: %v\n", StepCommand, err)
		return 2
	}
	f, err := os.Create(result)
	if err != nil {
		fmt.Fprintf(stderr, "sycbuild %s: %v\n", StepCommand, err)
		return 2
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	start := stepStart{ID: os.Getenv("SLURM_JOB_ID") + "." + os.Getenv("SLURM_STEP_ID"), Node: os.Getenv("SLURMD_NODENAME")}
	if err := enc.Encode(start); err != nil {
		fmt.Fprintf(stderr, "sycbuild %s: %v\n", StepCommand, err)
		return 2
	}
	cmds[0].Stdin = os.Stdin
	for _, c := range cmds {
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
	}
	usages, errs, _ := jobs.Local{}.Run(context.Background(), cmds, jobs.Request{})
	end := stepEnd{Cmds: make([]cmdResult, len(cmds)), Failed: -1}
	firstBroken := -1
	for i, u := range usages {
		r := &end.Cmds[i]
		if u == nil {
			r.Error = errs[i].Error()
		} else {
			r.Started = true
			r.Exit, r.User, r.System, r.MaxRSS, r.Wall = u.ExitCode, int64(u.User), int64(u.System), u.MaxRSS, int64(u.Wall)
			var ee *exec.ExitError
			if errors.As(errs[i], &ee) {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					r.Exit, r.Signal, r.Core = -1, int(ws.Signal()), ws.CoreDump()
				} else {
					r.Exit = ee.ExitCode()
				}
			}
		}
		switch {
		case errs[i] == nil || end.Failed >= 0:
		case !jobs.BrokenPipe(errs[i]):
			end.Failed = i
		case firstBroken < 0:
			firstBroken = i
		}
	}
	if end.Failed < 0 {
		end.Failed = firstBroken
	}
	if err := enc.Encode(end); err != nil {
		fmt.Fprintf(stderr, "sycbuild %s: %v\n", StepCommand, err)
		return 2
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(stderr, "sycbuild %s: %v\n", StepCommand, err)
		return 2
	}
	if end.Failed >= 0 {
		return end.Cmds[end.Failed].code()
	}
	return 0
}
