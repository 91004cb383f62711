package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/slurm"
	"github.com/sycbuild/sycbuild/toolchain"
)

// ToolsCommand is the command by which sycbuild runs ToolsMain ("sycbuild
// slurm-tools …"): what the slurm executor runs on a node to learn the
// identities of the tools there.
const ToolsCommand = "slurm-tools"

// Executor is where a planned build's external commands run: the runner
// to give graph.Options.Runner (nil: this machine).
type Executor struct {
	Runner jobs.Runner
	// Cluster is the slurm executor's allocation; nil for the local one.
	Cluster *slurm.Cluster
	steps   *os.File // the steps' log (StepsLog)
	mu      sync.Mutex
}

// StepsLog is the file in the state directory where the slurm executor
// logs the build's steps, one a line: the step's id, its node and its
// commands ("42.7 node3 ocloc compile -file …", pipelines joined by " | "),
// in the order they ended. Each build starts it anew.
const StepsLog = "steps.log"

// ExecutorOptions are OpenExecutor's inputs besides the config and the
// plan.
type ExecutorOptions struct {
	// Kind replaces the config's executor when not "" (-executor).
	Kind configs.Executor
	// Self is sycbuild's own executable, which the steps run on the nodes
	// (they must see it at this path).
	Self string
	// Env is the environment of Slurm's commands and of the steps; nil is
	// this process's.
	Env []string
}

// OpenExecutor opens the executor the config names for plan. The slurm one
// finds its allocation (SLURM_JOB_ID, else a new one with the config's
// slurm: settings), checks that the nodes see the build directory, and
// that the tools the build runs are there the same tools as here (their
// identities, --version's answer and content digest, are part of every
// cache key): once per build, in one step. Close gives it all back.
func OpenExecutor(ctx context.Context, cfg *configs.Config, plan *Plan, o ExecutorOptions) (*Executor, error) {
	kind := cfg.Executor
	if o.Kind != "" {
		kind = o.Kind
	}
	if kind != configs.ExecutorSlurm {
		return &Executor{}, nil
	}
	var s slurm.Settings
	if c := cfg.Slurm; c != nil {
		s = slurm.Settings{Partition: c.Partition, Account: c.Account, Time: c.Time, Nodes: c.Nodes, Extra: c.Extra}
	}
	cluster, err := slurm.Open(ctx, s, o.Env)
	if err != nil {
		return nil, err
	}
	e := &Executor{Cluster: cluster}
	fail := func(err error) (*Executor, error) {
		e.Close()
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return fail(err)
	}
	buildDir := plan.BuildDir
	if !filepath.IsAbs(buildDir) {
		buildDir = filepath.Join(dir, buildDir)
	}
	steps := filepath.Join(buildDir, StateDirName, "steps")
	if err := os.MkdirAll(steps, 0o755); err != nil {
		return fail(err)
	}
	if err := cluster.CheckShared(ctx, buildDir); err != nil {
		return fail(fmt.Errorf("slurm: %v", err))
	}
	if err := checkTools(ctx, cluster, dir, o.Self, plan.Tools); err != nil {
		return fail(err)
	}
	if e.steps, err = os.Create(filepath.Join(buildDir, StateDirName, StepsLog)); err != nil {
		return fail(err)
	}
	e.Runner = &slurm.Runner{Cluster: cluster, Self: []string{o.Self, slurm.StepCommand}, Dir: steps, Steps: e.logStep}
	return e, nil
}

// logStep writes a step's line into the steps' log.
func (e *Executor) logStep(w jobs.Where, cmds []*jobs.Command) {
	words := make([]string, len(cmds))
	for i, c := range cmds {
		words[i] = graph.ShellQuote(c.Argv)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(e.steps, "%s %s %s\n", w.ID, w.Node, strings.Join(words, " | "))
}

// Close cancels the executor's steps still running and gives back an
// allocation it made.
func (e *Executor) Close() error {
	if e.Cluster == nil {
		return nil
	}
	err := e.Cluster.Close()
	if e.steps != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		if cerr := e.steps.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// checkTools runs ToolsMain on a node, in the config's directory dir, and
// compares the identities it finds with the plan's.
func checkTools(ctx context.Context, c *slurm.Cluster, dir, self string, ts []*toolchain.Tool) error {
	if len(ts) == 0 {
		return nil
	}
	argv := []string{self, ToolsCommand}
	for _, t := range ts {
		argv = append(argv, string(t.Role)+"="+t.Path)
	}
	out, where, err := c.Output(ctx, dir, argv...)
	if err != nil {
		return fmt.Errorf("slurm: the tools' identities on a node: %v", err)
	}
	there := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if role, v, ok := strings.Cut(line, "\t"); ok {
			there[role] = v
		}
	}
	var bad []string
	for _, t := range ts {
		v, ok := there[string(t.Role)]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s (%s): not asked", t.Role, t.Path))
		case v != t.Version:
			bad = append(bad, fmt.Sprintf("%s (%s): here %q, there %q", t.Role, t.Path, t.Version, v))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("slurm: the node %s does not have the tools this machine has (their identities are in every cache key, so a build there would record results under keys that are not theirs): %s; "+
			"install the same tools on the nodes, or put them on a file system the nodes share and name them under tools:", where.Node, strings.Join(bad, "; "))
	}
	return nil
}

// ToolsMain runs on a node for the slurm executor: for each "ROLE=PATH"
// argument it prints the role and the identity of the tool at PATH (as
// the build finds it here: --version's answer and content digest), a tab
// between them; in the identity's place, why it has none. It runs in the
// config's directory, which relative paths are relative to.
func ToolsMain(args []string, stdout, stderr io.Writer) int {
	versions := toolchain.LoadVersionCache("")
	for _, a := range args {
		role, path, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(stderr, "sycbuild %s: %q is not ROLE=PATH\n", ToolsCommand, a)
			return 2
		}
		v, err := versions.Version(configs.Tool(role), path)
		if err != nil {
			v = "none: " + err.Error()
		}
		fmt.Fprintf(stdout, "%s\t%s\n", role, v)
	}
	return 0
}
