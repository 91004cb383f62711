package jobs

import (
	"context"
	"errors"
)

// A Runner runs the processes of one piece of a build's work: one command,
// or a pipeline (each command's standard output into the next one's
// standard input). The build executor hands every external command to one
// Runner, which decides where it runs: on this machine (Local), or as a
// step of a cluster's allocation. Each command's Stdout and Stderr, files
// the executor opened, and the files its command line names are the
// executor's; a runner that runs elsewhere needs them on a shared file
// system.
type Runner interface {
	// Run runs cmds, all at once, and waits for them all. Each gets what
	// Command.Run returns: its usage (nil when it did not start) and its
	// error; where says where they ran. Cancelling ctx stops them, as it
	// stops a Command.
	Run(ctx context.Context, cmds []*Command, req Request) (usages []*Usage, errs []error, where Where)
}

// Request is what a runner is told of the work besides its commands.
type Request struct {
	// Memory is the predicted peak memory of the commands together, in
	// bytes; 0 when nothing predicts it.
	Memory int64
	// CPUs is the number of threads the commands may keep busy (1 when 0).
	CPUs int
	// Exclude names machines the work must not run on: the work ran there
	// before, and the machine failed under it.
	Exclude []string
}

// Where says where a runner ran work.
type Where struct {
	// Node is the machine's name; "" is this one.
	Node string
	// ID is the engine's own id of the run (a Slurm "job.step"); "" when
	// there is none.
	ID string
}

// ErrNodeFailed is wrapped by the error of a command whose machine failed
// under it: the command itself is not at fault, and the executor runs it
// again, once, on another machine (Request.Exclude).
var ErrNodeFailed = errors.New("the node failed")

// ErrMemoryKilled is wrapped by the error of a command that its runner's
// engine killed for using more memory than the work was given
// (Request.Memory).
var ErrMemoryKilled = errors.New("killed for using more memory than it was given")

// Local runs work on this machine, as Command.Run and RunPipeline do.
type Local struct{}

// Run runs cmds here.
func (Local) Run(ctx context.Context, cmds []*Command, _ Request) ([]*Usage, []error, Where) {
	if len(cmds) == 1 {
		u, err := cmds[0].Run(ctx)
		return []*Usage{u}, []error{err}, Where{}
	}
	usages, errs := RunPipeline(ctx, cmds)
	return usages, errs, Where{}
}
