package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/internal/heapfloor"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/pipeline"
	"github.com/sycbuild/sycbuild/report"
	"github.com/sycbuild/sycbuild/toolchain"
)

// Exit statuses of the build mode.
const (
	exitFailed      = 1   // an action failed
	exitUsage       = 2   // bad flags, bad config, missing tools
	exitInterrupted = 130 // SIGINT or SIGTERM (128 + SIGINT)
)

// buildFlags are the build mode's command-line flags, parsed in one place.
type buildFlags struct {
	config    string
	jobs      int
	keepGoing bool
	dryRun    bool
	verbose   bool
	batch     int
	explain   bool
	trace     string
	dotOut    string    // graph subcommand: -o
	host      hostFlags // -o, -M, --no-cache, inputs…: hostflags.go
	run       runFlags  // -m, -report: runflags.go
	cache     cacheFlags
}

func parseBuildFlags(name string, args []string, stderr io.Writer, graphMode bool) (*buildFlags, error) {
	f := &buildFlags{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "config", "targets.yaml", "the build description (`targets.yaml`)")
	if graphMode {
		fs.StringVar(&f.dotOut, "o", "", "write the DOT graph to `file` instead of standard output")
	} else {
		fs.IntVar(&f.jobs, "j", 0, "run `N` jobs in parallel in total (default: the config's jobs, make's jobserver, or one per CPU)")
		fs.BoolVar(&f.keepGoing, "k", false, "keep going: run everything that does not depend on a failed action")
		fs.BoolVar(&f.dryRun, "n", false, "print the commands that would run, as a shell script, and run nothing")
		fs.BoolVar(&f.verbose, "v", false, "print each command as it runs")
		fs.IntVar(&f.batch, "batch", 0, "run the ahead-of-time compiles of up to `N` modules as one ocloc process (ocloc multi); 1: each alone (default: decided from the modules and job slots)")
		fs.BoolVar(&f.explain, "explain", false, "say why each action runs")
		fs.StringVar(&f.trace, "trace", "", "write a Chrome trace of the build to `file`")
		f.host.register(fs)
		f.run.register(fs)
		f.cache.register(fs)
	}
	fs.Usage = func() {
		if graphMode {
			fmt.Fprintf(stderr, "Usage: sycbuild graph [-config targets.yaml] [-o file.dot]\n\nWrites the build graph in Graphviz's DOT language.\n\n")
		} else {
			fmt.Fprintf(stderr, "Usage: sycbuild [-config targets.yaml] [build flags] [device inputs]\n\nBuilds the host object the config describes (docs/targets.md).\nDevice inputs given here replace the config's.\n\n")
		}
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage // the flag package printed why, and the usage
	}
	if !graphMode {
		f.host.inputs = fs.Args()
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return nil, errUsage
	}
	if f.jobs < 0 {
		return nil, fmt.Errorf("%s: -j must be at least 1", name)
	}
	if f.batch < 0 {
		return nil, fmt.Errorf("%s: -batch must be at least 1", name)
	}
	if f.run.executor != "" {
		if _, err := configs.ParseExecutor(f.run.executor); err != nil {
			return nil, fmt.Errorf("%s: -executor: %v", name, err)
		}
	}
	return f, nil
}

// build runs the build mode (sycbuild -config targets.yaml).
func build(args []string, stdio clopt.Stdio) int {
	f, err := parseBuildFlags("sycbuild", args, stdio.Err, false)
	if err != nil {
		return flagStatus(err, stdio.Err)
	}
	// Coordinating the external commands allocates little and keeps less:
	// the collector waits until the heap reaches 32 MiB, not the
	// runtime's 4 MiB (an in-process split grows past that at once).
	heapfloor.Set(32<<20, 100)
	ctx, stop := interruptible()
	defer stop()
	s, code := setUp(ctx, f, stdio)
	if s == nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stdio.Err, "sycbuild: interrupted")
			return exitInterrupted
		}
		return code
	}
	defer s.restore()
	var trace *graph.Trace
	var fanouts *fanoutCPU
	if f.trace != "" {
		trace, fanouts = graph.NewTrace(), &fanoutCPU{}
		s.opt.Observer = graph.Observers{s.opt.Observer, trace, fanouts}
	}
	var rep *report.Report
	if f.run.report != "" && !f.dryRun {
		config, tools := report.BuildSummary(s.cfg, s.plan)
		rep = report.New(report.Options{Title: "sycbuild: " + s.plan.Output, Dir: s.opt.Dir, Budget: s.opt.Memory, Config: config, Tools: tools})
		s.opt.Observer = graph.Observers{s.opt.Observer, rep}
	}
	res, err := s.plan.Graph.Build(ctx, s.opt)
	s.progress.Close()
	if !f.dryRun {
		if serr := s.versions.Save(); serr != nil && err == nil {
			err = serr
		}
	}
	if f.trace != "" {
		// sycbuild's own CPU time (its children's is not included): what
		// coordinating the build cost.
		if user, sys, ok := jobs.SelfCPU(); ok {
			trace.SetMeta("sycbuild_user_seconds", seconds(user))
			trace.SetMeta("sycbuild_system_seconds", seconds(sys))
		}
		fanouts.record(trace)
		if terr := trace.WriteFile(f.trace); terr != nil {
			fmt.Fprintf(stdio.Err, "sycbuild: writing the trace: %v\n", terr)
		}
	}
	if rep != nil {
		if rerr := rep.WriteFile(f.run.report); rerr != nil {
			fmt.Fprintf(stdio.Err, "sycbuild: writing the report: %v\n", rerr)
		}
	}
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stdio.Err, "sycbuild: interrupted")
		return exitInterrupted
	case errors.Is(err, graph.ErrFailed):
		fmt.Fprintf(stdio.Err, "sycbuild: %v\n", err)
		return exitFailed
	case err != nil:
		fmt.Fprintf(stdio.Err, "sycbuild: %v\n", err)
		return exitFailed
	}
	if !f.dryRun {
		if err := f.host.writeDepfile(s.cfg, s.plan.Output, s.plan.Graph); err != nil {
			fmt.Fprintf(stdio.Err, "sycbuild: %v\n", err)
			return exitFailed
		}
	}
	fmt.Fprintln(stdio.Err, summary(s.plan, res, f.dryRun))
	return 0
}

// graphCommand runs "sycbuild graph": the build graph as DOT.
func graphCommand(args []string, stdio clopt.Stdio) int {
	f, err := parseBuildFlags("sycbuild graph", args, stdio.Err, true)
	if err != nil {
		return flagStatus(err, stdio.Err)
	}
	f.dryRun = true // nothing is built; tool versions are not saved
	s, code := setUp(context.Background(), f, stdio)
	if s == nil {
		return code
	}
	defer s.restore()
	if f.dotOut != "" {
		err = atomicfile.Write(f.dotOut, func(w io.Writer) error { return s.plan.Graph.WriteDOT(w) })
	} else {
		err = s.plan.Graph.WriteDOT(stdio.Out)
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "sycbuild: %v\n", err)
		return exitFailed
	}
	return 0
}

// errUsage is a command line parseBuildFlags rejected after printing why
// and the usage.
var errUsage = errors.New("usage")

// flagStatus returns the exit status for an error of parseBuildFlags,
// printing the error unless it has been printed.
func flagStatus(err error, stderr io.Writer) int {
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case !errors.Is(err, errUsage):
		fmt.Fprintln(stderr, err)
	}
	return exitUsage
}

// session is a planned build; restore releases what setUp took (the job
// pool, the caches).
type session struct {
	cfg      *configs.Config
	plan     *pipeline.Plan
	opt      graph.Options
	progress *graph.Progress
	versions *toolchain.VersionCache
	restore  func()
}

// setUp loads the config, picks the job pool and plans the build. Every
// path of the build is relative to the config's directory, which the
// build runs in (graph.Options.Dir: commands get it as their working
// directory, in-process tools resolve their paths against it), so that
// commands and outputs do not depend on where the project lives; the
// process's own working directory never changes. On failure it has printed
// why and returns the exit status. A build (not -n) opens its executor:
// with the slurm one, the allocation; cancelling ctx gives up waiting for
// it.
func setUp(ctx context.Context, f *buildFlags, stdio clopt.Stdio) (*session, int) {
	cfg, configFile, code := loadConfig(f, stdio)
	if cfg == nil {
		return nil, code
	}
	self := selfCommand()
	given := f.absOutputs()

	// The build directory as this process names it.
	buildDir := cfg.BuildDir
	if !filepath.IsAbs(buildDir) {
		buildDir = filepath.Join(cfg.Dir, buildDir)
	}
	stateDir := filepath.Join(buildDir, pipeline.StateDirName)
	if f.host.noCache {
		stateDir = "" // nothing cached, no state kept: the host caches
	}
	versions := toolchain.LoadVersionCache(stateFile(stateDir, "tools"))
	warn := func(msg string) { fmt.Fprintln(stdio.Err, "sycbuild: "+msg) }
	plan, err := pipeline.New(cfg, pipeline.Options{Versions: versions, Warn: warn, ConfigFile: configFile, Written: f.written(given)})
	if err != nil {
		fmt.Fprintln(stdio.Err, err)
		return nil, exitUsage
	}
	tty := false
	if file, ok := stdio.Err.(*os.File); ok {
		tty = graph.IsTerminal(file)
	}
	// The observers: the progress line, and -explain through it (so that
	// its lines never collide with the status line); build adds -trace's.
	progress := graph.NewProgress(stdio.Err, tty)
	observers := graph.Observers{progress}
	if f.explain {
		observers = append(observers, graph.Explain(progress))
	}
	s := &session{cfg: cfg, plan: plan, progress: progress, versions: versions, restore: func() {}}
	s.opt = graph.Options{
		KeepGoing: f.keepGoing,
		DryRun:    f.dryRun,
		Script:    stdio.Out,
		Verbose:   f.verbose,
		Batch:     f.batch,
		Observer:  observers,
		StateDir:  stateDir,
		LockDir:   buildDir,
		Self:      self,
		Dir:       cfg.Dir,
	}
	if f.dryRun {
		if cfg.Dir != "." {
			fmt.Fprintf(stdio.Out, "cd %s\n", graph.ShellQuote([]string{cfg.Dir}))
		}
		return s, 0
	}
	if code := s.open(ctx, f, stdio, warn); code != 0 {
		s.restore()
		return nil, code
	}
	return s, 0
}

// buildErrorf prints "sycbuild: " and the formatted message as a line to w.
func buildErrorf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "sycbuild: "+format+"\n", args...)
}

// loadConfig loads and validates f's config, applies the host's flags to
// it and names the config file absolutely. On failure it has printed why
// and returns a nil config and the exit status.
func loadConfig(f *buildFlags, stdio clopt.Stdio) (*configs.Config, string, int) {
	cfg, err := configs.Load(f.config)
	if err != nil {
		var list configs.ErrorList
		if errors.As(err, &list) {
			fmt.Fprintln(stdio.Err, err)
		} else {
			buildErrorf(stdio.Err, "%v", err)
		}
		return nil, "", exitUsage
	}
	if err := f.host.apply(cfg); err != nil {
		buildErrorf(stdio.Err, "%v", err)
		return nil, "", exitUsage
	}
	configFile, err := filepath.Abs(f.config)
	if err != nil {
		buildErrorf(stdio.Err, "%v", err)
		return nil, "", exitUsage
	}
	return cfg, configFile, 0
}

// absOutputs makes the paths of -trace, -o (graph) and -report absolute and
// returns how the command line gave each file the build writes, by the
// path the build uses.
func (f *buildFlags) absOutputs() map[string]string {
	given := map[string]string{f.trace: f.trace, f.dotOut: f.dotOut, f.host.depfile: f.host.depfileGiven}
	for _, p := range []*string{&f.trace, &f.dotOut, &f.run.report} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				given[abs] = *p
				*p = abs
			}
		}
	}
	return given
}

// written is the files the command line asks the build to write, for the
// plan to check against its own outputs (given: as absOutputs returns).
func (f *buildFlags) written(given map[string]string) []pipeline.Written {
	var written []pipeline.Written
	for _, w := range []struct{ path, flag string }{{f.host.depfile, "-M"}, {f.trace, "-trace"}, {f.dotOut, "-o"}, {f.run.report, "-report"}} {
		if w.path != "" {
			written = append(written, pipeline.Written{Path: w.path, Shown: given[w.path], Where: "command line: " + w.flag})
		}
	}
	return written
}

// open opens what a real build (not -n) runs with: the executor, the job
// pool, the memory budget and the caches, adding each to s.restore. On
// failure it has printed why and returns the exit status; the caller
// releases what was opened.
func (s *session) open(ctx context.Context, f *buildFlags, stdio clopt.Stdio, warn func(string)) int {
	cfg := s.cfg
	// The executor first: on a cluster, the allocation's CPUs are the
	// jobs and its memory the budget, unless told otherwise.
	ex, err := pipeline.OpenExecutor(ctx, cfg, s.plan, pipeline.ExecutorOptions{Kind: configs.Executor(f.run.executor), Self: selfExecutable()})
	if err != nil {
		buildErrorf(stdio.Err, "%v", err)
		return exitFailed
	}
	s.restore = chain(s.restore, func() { ex.Close() })
	s.opt.Runner = ex.Runner
	cpus, available := runtime.NumCPU(), availableMemory()
	if ex.Cluster != nil {
		cpus = ex.Cluster.CPUs()
		if m := ex.Cluster.Memory(); m > 0 {
			available = m
		}
		if f.verbose {
			warn(fmt.Sprintf("executor: slurm, allocation %s (%d CPUs on %s)", ex.Cluster.Job(), cpus, ex.Cluster.Nodes()))
		}
	}
	pool, err := choosePool(f.jobs, cfg.Jobs, cpus, warn)
	if err != nil {
		buildErrorf(stdio.Err, "%v", err)
		return exitUsage
	}
	s.opt.Pool = pool
	s.restore = chain(s.restore, func() { pool.Close() })
	if s.opt.Memory, err = f.run.memoryBudget(cfg, available); err != nil {
		buildErrorf(stdio.Err, "%v", err)
		return exitUsage
	}
	if !f.host.noCache { // a host that caches (Bazel) keeps sycbuild's caches out
		c, isRemote, err := f.cache.open(cfg, warn)
		if err != nil {
			buildErrorf(stdio.Err, "%v", err)
			return exitUsage
		}
		if c != nil {
			s.opt.Cache, s.opt.RemoteCache = c, isRemote
			s.restore = chain(s.restore, func() { c.Close() })
		}
	}
	if f.verbose {
		warn("jobs: " + pool.String())
	}
	return 0
}

// stateFile is name in the state directory, or "" when there is none.
func stateFile(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}

func chain(a, b func()) func() { return func() { b(); a() } }

// choosePool picks the job pool: -j on the command line; else make's
// jobserver when sycbuild runs under make -jN; else the config's jobs;
// else one job per CPU (cpus: this machine's, or the allocation's).
func choosePool(flagJobs, cfgJobs, cpus int, warn func(string)) (jobs.Pool, error) {
	if flagJobs > 0 {
		return jobs.NewPool(flagJobs), nil
	}
	if auth := jobs.JobserverAuth(os.Getenv("MAKEFLAGS")); auth != "" {
		pool, err := jobs.OpenJobserver(auth)
		if err == nil {
			return pool, nil
		}
		// As make itself does for a sub-make cut off from the jobserver.
		warn(fmt.Sprintf("warning: make's jobserver is unavailable (%v): using -j1. Mark the recipe with '+' to share make's jobs, or give sycbuild -j N (CMake's sycbuild_device_link: CMake 3.28 or later shares them, JOBS N sets them).", err))
		return jobs.NewPool(1), nil
	}
	if cfgJobs > 0 {
		return jobs.NewPool(cfgJobs), nil
	}
	return jobs.NewPool(max(cpus, 1)), nil
}

// selfExecutable is this executable's absolute path, which a cluster's
// nodes run; Args[0] where the system does not say.
func selfExecutable() string {
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return selfCommand()
}

// selfCommand is how printed commands name this executable: as typed when
// found on PATH, else its absolute path (commands are printed for the
// config's directory).
func selfCommand() string {
	arg0 := os.Args[0]
	if !strings.Contains(arg0, "/") {
		return arg0
	}
	if abs, err := filepath.Abs(arg0); err == nil {
		return abs
	}
	return arg0
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM;
// a second one ends the process at once.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case <-sigs:
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(sigs)
		cancel()
	}
}

// summary is the last line of a build.
func summary(plan *pipeline.Plan, r *graph.Result, dry bool) string {
	if dry {
		return fmt.Sprintf("sycbuild: dry run: %d of %d actions would run", r.Ran, r.Actions)
	}
	s := fmt.Sprintf("sycbuild: %s: %d actions run, %d up to date", plan.Output, r.Ran, r.UpToDate)
	if r.JobsRan+r.JobsCached > 0 {
		s += fmt.Sprintf("; %d module jobs run, %d up to date", r.JobsRan, r.JobsCached)
	}
	if r.LocalHits+r.RemoteHits > 0 {
		s += fmt.Sprintf("; %d restored from the local cache, %d from the remote cache", r.LocalHits, r.RemoteHits)
	}
	s += fmt.Sprintf(" (%.2fs)", r.Elapsed.Seconds())
	if n := len(r.Fallbacks); n > 0 {
		s += fmt.Sprintf("\nsycbuild: %d %s fell back to SPIR-V, compiled when the program runs:", n, plural(n, "module", "modules"))
		for _, f := range r.Fallbacks {
			s += "\n  " + f
		}
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
