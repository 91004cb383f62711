// Package slurm runs commands as job steps of a Slurm allocation, through
// Slurm's own commands (salloc, srun, squeue, scancel): the way sycbuild
// spreads a build's module jobs over the nodes of a cluster.
//
// Inside an allocation (SLURM_JOB_ID set, as under salloc or sbatch) the
// steps run in it. Outside one, Open asks for an allocation with the
// user's settings and holds it while the build runs: salloc runs a command
// that ends when its standard input, a pipe from this process, closes, so
// the allocation is given back when the build ends, however it ends, even
// if sycbuild is killed. A step killed with its srun ends with it (Slurm
// stops a step whose srun is gone), and Close cancels what is left.
//
// The outputs of a step go through a file system both this machine and the
// nodes see (CheckShared tells whether they do). Every process goes
// through package jobs.
package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// Settings are what sycbuild asks Slurm for when it must make its own
// allocation (outside one): salloc's options.
type Settings struct {
	Partition string   // -p
	Account   string   // -A
	Time      string   // -t, in Slurm's forms (minutes, "H:MM:SS", "D-H")
	Nodes     int      // -N; 0 is Slurm's default (1)
	Extra     []string // further salloc options, as given
}

// Args are salloc's options for s. Unless Extra says how many CPUs to
// ask for (-n, -c, --exclusive, …), they ask for whole nodes: salloc's
// default, one CPU, would run a build's steps one at a time.
func (s Settings) Args() []string {
	var args []string
	if s.Partition != "" {
		args = append(args, "--partition="+s.Partition)
	}
	if s.Account != "" {
		args = append(args, "--account="+s.Account)
	}
	if s.Time != "" {
		args = append(args, "--time="+s.Time)
	}
	if s.Nodes > 0 {
		args = append(args, "--nodes="+strconv.Itoa(s.Nodes))
	}
	if !namesCPUs(s.Extra) {
		args = append(args, "--exclusive")
	}
	return append(args, s.Extra...)
}

// cpuOptions are salloc's options that say how many CPUs to allocate.
var cpuOptions = []string{"-n", "--ntasks", "-c", "--cpus-per-task", "--exclusive", "--mincpus", "--ntasks-per-node", "--cpus-per-gpu"}

func namesCPUs(extra []string) bool {
	for _, a := range extra {
		for _, o := range cpuOptions {
			if a == o || strings.HasPrefix(a, o+"=") || len(o) == 2 && strings.HasPrefix(a, o) {
				return true
			}
		}
	}
	return false
}

// Cluster is an allocation that steps run in.
type Cluster struct {
	env   []string // the environment of Slurm's commands; nil: this process's
	job   string   // the allocation's job id
	name  string   // the name of this process's steps, as squeue shows them
	cpus  int      // the allocation's CPUs
	nodes string   // its nodes, in Slurm's host-list form
	// The allocation's memory in bytes, in all and the number of its
	// nodes; 0 when Slurm does not say.
	memory    int64
	nodeCount int

	// When this process made the allocation: the pipe whose closing gives
	// it back, and the end of the salloc that holds it.
	release *os.File
	held    chan error
	closed  sync.Once
}

// Job is the allocation's job id.
func (c *Cluster) Job() string { return c.job }

// CPUs is the number of CPUs of the allocation.
func (c *Cluster) CPUs() int { return c.cpus }

// Nodes are the allocation's nodes, in Slurm's host-list form ("n[1-4]").
func (c *Cluster) Nodes() string { return c.nodes }

// Owned reports whether this process made the allocation (and gives it back
// at Close).
func (c *Cluster) Owned() bool { return c.release != nil }

// Open finds the allocation to run steps in: the one this process runs in
// when env (nil: this process's environment) has SLURM_JOB_ID, else a new
// one that salloc asks for with s. Waiting for a new allocation may take a
// while on a busy cluster; cancelling ctx gives up.
func Open(ctx context.Context, s Settings, env []string) (*Cluster, error) {
	if env == nil {
		env = os.Environ()
	}
	c := &Cluster{env: env, name: fmt.Sprintf("sycbuild-%d", os.Getpid())}
	if job := lookup(env, "SLURM_JOB_ID"); job != "" {
		c.job = job
	} else if err := c.allocate(ctx, s); err != nil {
		return nil, err
	}
	info, err := c.query(ctx, "squeue", "-h", "-j", c.job, "-o", "%C %N")
	if err == nil {
		f := strings.Fields(info)
		if len(f) == 2 {
			c.cpus, err = strconv.Atoi(f[0])
			c.nodes = f[1]
		} else {
			err = fmt.Errorf("squeue said %q", info)
		}
	}
	if err == nil {
		info, err = c.query(ctx, "scontrol", "show", "job", "-o", c.job)
		if err == nil {
			c.memory, c.nodeCount = jobMemory(info)
		}
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("slurm: the allocation %s: %w", c.job, err)
	}
	return c, nil
}

// Memory is the allocation's memory in bytes, on all its nodes (0 when
// Slurm does not say).
func (c *Cluster) Memory() int64 { return c.memory }

// NodeMemory is the allocation's memory on one of its nodes (0 when Slurm
// does not say).
func (c *Cluster) NodeMemory() int64 {
	if c.nodeCount < 1 {
		return 0
	}
	return c.memory / int64(c.nodeCount)
}

// jobMemory reads the memory and the node count of a job from scontrol's
// one-line record of it ("NumNodes=2 … TRES=cpu=8,mem=16G,node=2").
func jobMemory(record string) (memory int64, nodes int) {
	for _, f := range strings.Fields(record) {
		if v, ok := strings.CutPrefix(f, "NumNodes="); ok {
			nodes, _ = strconv.Atoi(strings.SplitN(v, "-", 2)[0])
		}
		if v, ok := strings.CutPrefix(f, "TRES="); ok {
			for _, t := range strings.Split(v, ",") {
				if m, ok := strings.CutPrefix(t, "mem="); ok {
					memory = parseMemory(m)
				}
			}
		}
	}
	return memory, nodes
}

// parseMemory reads a memory size as Slurm writes it: a number of MiB, or
// one with a unit (K, M, G, T, P); 0 when it is none.
func parseMemory(s string) int64 {
	shift := 20
	if n := len(s); n > 0 {
		if i := strings.IndexByte("KMGTP", s[n-1]); i >= 0 {
			shift, s = 10*(i+1), s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0
	}
	return int64(v * float64(int64(1)<<shift))
}

// allocate has salloc make an allocation and hold it until c.release closes.
func (c *Cluster) allocate(ctx context.Context, s Settings) error {
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdinW.Close()
		return err
	}
	var stderr syncBuffer
	argv := append([]string{"salloc", "--job-name=" + c.name}, s.Args()...)
	// The command salloc runs once the allocation is granted says the job's
	// id, then waits for the end of its input.
	argv = append(argv, "sh", "-c", `echo "$SLURM_JOB_ID"; exec cat >/dev/null`)
	cmd := &jobs.Command{Argv: argv, Env: c.env, Stdin: stdinR, Stdout: stdoutW, Stderr: &stderr, Outlive: true}
	// Not ctx: the allocation is given back by closing its input, so that
	// salloc can relinquish it, not by killing salloc.
	wait, err := cmd.Start(context.Background())
	// The child holds its ends of the pipes now.
	stdinR.Close()
	stdoutW.Close()
	if err != nil {
		stdinW.Close()
		stdoutR.Close()
		return fmt.Errorf("slurm: %v", err)
	}
	c.held = make(chan error, 1)
	go func() {
		_, err := wait()
		c.held <- err
	}()
	c.release = stdinW
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdoutR).ReadString('\n')
		line <- strings.TrimSpace(s)
		stdoutR.Close()
	}()
	failed := func(why string) error {
		return fmt.Errorf("slurm: %s: no allocation: %s", strings.Join(argv[:len(argv)-3], " "), why)
	}
	select {
	case job := <-line:
		if _, err := strconv.Atoi(job); err == nil {
			c.job = job
			return nil
		}
		c.Close()
		return failed(lastLines(stderr.String(), 5))
	case err := <-c.held:
		c.held <- err // for Close
		c.Close()
		return failed(fmt.Sprintf("%v: %s", err, lastLines(stderr.String(), 5)))
	case <-ctx.Done():
		c.Close()
		return fmt.Errorf("slurm: waiting for an allocation: %w", context.Cause(ctx))
	}
}

// Close cancels this process's steps still running and gives back an
// allocation Open made. It waits for that at most a minute, then cancels
// the allocation with scancel.
func (c *Cluster) Close() error {
	var err error
	c.closed.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if c.job != "" {
			c.cancelSteps(ctx)
		}
		if c.release == nil {
			return
		}
		c.release.Close()
		select {
		case <-c.held:
		case <-ctx.Done():
			if c.job != "" {
				_, err = c.query(context.Background(), "scancel", c.job)
			}
		}
	})
	return err
}

// cancelSteps cancels the steps named as this process names its own.
func (c *Cluster) cancelSteps(ctx context.Context) {
	out, err := c.query(ctx, "squeue", "--steps", "-h", "-j", c.job, "-o", "%i %j")
	if err != nil {
		return
	}
	var ids []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == c.name {
			ids = append(ids, f[0])
		}
	}
	if len(ids) > 0 {
		c.query(ctx, "scancel", ids...)
	}
}

// query runs one of Slurm's commands and returns its output.
func (c *Cluster) query(ctx context.Context, prog string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := &jobs.Command{Argv: append([]string{prog}, args...), Env: c.env, Stdout: &stdout, Stderr: &stderr}
	if _, err := cmd.Run(ctx); err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", prog, strings.Join(args, " "), err, lastLines(stderr.String(), 5))
	}
	return strings.TrimSpace(stdout.String()), nil
}

func lookup(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// lastLines is the last n lines of s, trimmed.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// errNoStep is what ReadStep says of a step that did not start its command.
var errNoStep = errors.New("the step did not start its command")
