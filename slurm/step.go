package slurm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// Step is what one job step asks of the allocation.
type Step struct {
	CPUs    int      // -c; 0 is 1
	Memory  int64    // --mem in bytes, rounded up to MiB; 0 asks for none
	Exclude []string // nodes not to run on (a re-run after a node failed)
	// Info is a file the step writes, before it runs the command, with its
	// step id and node (see ReadStep); "" writes none. It must be where
	// both this machine and the nodes see it.
	Info string
}

// Wrap returns cmd run as a step of the allocation: srun with the step's
// resources, in the allocation, exclusive of the other steps' CPUs
// (--exact), its output coming back through srun to cmd's own Stdout and
// Stderr. Cancelling the context the returned command runs under stops srun,
// and the step with it.
func (c *Cluster) Wrap(cmd *jobs.Command, s Step) *jobs.Command {
	cpus := max(s.CPUs, 1)
	argv := []string{"srun", "--jobid=" + c.job, "--exact", "--nodes=1", "--ntasks=1",
		"--cpus-per-task=" + strconv.Itoa(cpus), "--job-name=" + c.name, "--quiet"}
	if s.Memory > 0 {
		argv = append(argv, "--mem="+strconv.FormatInt((s.Memory+1<<20-1)>>20, 10)+"M")
	}
	if len(s.Exclude) > 0 {
		argv = append(argv, "--exclude="+strings.Join(s.Exclude, ","))
	}
	if cmd.Dir != "" {
		argv = append(argv, "--chdir="+cmd.Dir)
	}
	prog := cmd.Argv
	if cmd.Path != "" {
		prog = append([]string{cmd.Path}, cmd.Argv[1:]...)
	}
	if s.Info != "" {
		// $0 is the info file; "$@" the command, run in the shell's place.
		argv = append(argv, "sh", "-c", `printf '%s.%s %s\n' "$SLURM_JOB_ID" "$SLURM_STEP_ID" "$SLURMD_NODENAME" >"$0" && exec "$@"`, s.Info)
	}
	w := *cmd
	w.Argv, w.Path = append(argv, prog...), ""
	if w.Env == nil {
		w.Env = c.env
	}
	if w.Grace == 0 {
		w.Grace = 2 * time.Second // srun, stopped, ends the step and says so
	}
	return &w
}

// Run runs cmd as a step (see Wrap) and says where it ran (from s.Info,
// which it needs). A step cancelled through ctx is also cancelled with
// scancel: srun, stopped, ends the step, and scancel makes sure of it
// when srun was stopped while the step was being launched.
func (c *Cluster) Run(ctx context.Context, cmd *jobs.Command, s Step) (*jobs.Usage, Where, error) {
	if s.Info == "" {
		return nil, Where{}, errors.New("slurm: Run needs the step's info file")
	}
	os.Remove(s.Info) // a file of an earlier step would name that step
	usage, err := c.Wrap(cmd, s).Run(ctx)
	where, werr := ReadStep(s.Info)
	if ctx.Err() != nil && werr == nil {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c.query(sctx, "scancel", where.ID)
		cancel()
	}
	return usage, where, err
}

// Where is where a step ran: its id ("JOB.STEP") and node.
type Where struct{ ID, Node string }

// ReadStep reads the info file a step wrote (Step.Info).
func ReadStep(info string) (Where, error) {
	b, err := os.ReadFile(info)
	if err != nil {
		return Where{}, fmt.Errorf("%w: %v", errNoStep, err)
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return Where{}, fmt.Errorf("%s: not a step's id and node: %q", info, b)
	}
	return Where{ID: f[0], Node: f[1]}, nil
}

// Failure is why a step failed, as far as Slurm says.
type Failure int

const (
	NoFailure     Failure = iota // the command's own failure, if any
	MemoryKilled                 // killed for using more memory than --mem
	NodeFailed                   // the node failed under the step
	StepCancelled                // cancelled (scancel, a time limit, the allocation's end)
)

func (f Failure) String() string {
	switch f {
	case MemoryKilled:
		return "killed by Slurm for exceeding its memory (--mem)"
	case NodeFailed:
		return "its node failed"
	case StepCancelled:
		return "cancelled by Slurm"
	}
	return ""
}

// Classify reads what srun and slurmstepd printed into a step's output to
// say why it failed.
func Classify(output []byte) Failure {
	switch {
	case bytes.Contains(output, []byte("exceeded memory limit")), bytes.Contains(output, []byte("oom_kill event")),
		bytes.Contains(output, []byte("OUT_OF_MEMORY")):
		return MemoryKilled
	case bytes.Contains(output, []byte("Node failure")), bytes.Contains(output, []byte("NODE_FAIL")):
		return NodeFailed
	case bytes.Contains(output, []byte("CANCELLED")), bytes.Contains(output, []byte("DUE TO TIME LIMIT")):
		return StepCancelled
	}
	return NoFailure
}

// Output runs argv as a step (1 CPU) and returns its standard output and
// where it ran: for what sycbuild asks of a node, such as a tool's version.
// dir is the step's working directory and where its info file goes.
func (c *Cluster) Output(ctx context.Context, dir string, argv ...string) ([]byte, Where, error) {
	info := filepath.Join(dir, ".sycbuild-step-"+token()+".info")
	defer os.Remove(info)
	var stdout, stderr bytes.Buffer
	cmd := c.Wrap(&jobs.Command{Argv: argv, Dir: dir, Stdout: &stdout, Stderr: &stderr}, Step{Info: info})
	if _, err := cmd.Run(ctx); err != nil {
		return nil, Where{}, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Argv, " "), err, lastLines(stderr.String(), 5))
	}
	where, err := ReadStep(info)
	return stdout.Bytes(), where, err
}

// CheckShared tells whether the nodes see dir as this machine does: a step
// reads a file written here. The outputs of steps come back only through
// such a directory.
func (c *Cluster) CheckShared(ctx context.Context, dir string) error {
	want := token()
	probe := filepath.Join(dir, ".sycbuild-shared-"+want)
	if err := os.WriteFile(probe, []byte(want), 0o644); err != nil {
		return err
	}
	defer os.Remove(probe)
	// Not Output: its info file would need the same sharing.
	var stdout, stderr bytes.Buffer
	cmd := c.Wrap(&jobs.Command{Argv: []string{"cat", probe}, Stdout: &stdout, Stderr: &stderr}, Step{})
	_, err := cmd.Run(ctx)
	if err != nil || strings.TrimSpace(stdout.String()) != want {
		return fmt.Errorf("the build directory %s is not shared with the allocation's nodes (%s): a step could not read %s there (%v%s); "+
			"with the slurm executor the build directory must be on a file system the nodes mount at the same path",
			dir, c.nodes, filepath.Base(probe), errOr(err), prefixed(lastLines(stderr.String(), 3)))
	}
	return nil
}

func errOr(err error) string {
	if err == nil {
		return "it read something else"
	}
	return err.Error()
}

func prefixed(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func token() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
