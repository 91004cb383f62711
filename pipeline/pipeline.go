// Package pipeline turns a loaded targets.yaml into the build graph of the
// device-link stage (see the project's design, "The pipeline"):
//
//	inputs ─ llvm-link (several inputs only) ─▶ linked IR (text or bitcode)
//	per target:
//	  linked IR ─ sycl-post-link ─▶ T0 [Code|Properties|Symbols]      (in-process)
//	  T0 ─ file-table-tform --extract=Code ─▶ code list                (in-process)
//	  code list ─ one chain of external tools per module ─▶ image list (fan-out)
//	  T0 + image list ─ file-table-tform --replace=Code,Code ─▶ T1    (in-process)
//	all T1 ─ clang-offload-wrapper -batch ─▶ the host object            (in-process)
//
// (llvm_ir targets embed the post-linked modules themselves: T0 goes to the
// wrapper directly.) Every path in the graph is the config's, relative to
// the config's directory, and the graph runs with that directory as its
// base (graph.Options.Dir, which external commands get as their working
// directory and in-process tools resolve their paths against): commands
// then name files the same way wherever the project lives, which keeps
// their outputs byte-identical. Planning reads the inputs and probes the
// tools relative to that directory too; it never changes the process's
// working directory.
package pipeline

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/diag"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/toolchain"
)

// Options are the inputs of Plan besides the config.
type Options struct {
	// Versions captures and caches tool versions, and the scans of the
	// inputs.
	Versions *toolchain.VersionCache
	// Warn receives warnings and notes (skipped inputs, skipped optional
	// targets, no spirv-val), each one line without the "sycbuild: "
	// prefix.
	Warn func(string)
	// ConfigFile is the config's path (absolute, or relative to the
	// config's directory); the build must not write it. "" skips that
	// check.
	ConfigFile string
	// Written are the files the build writes besides the output object
	// (a depfile, a trace): New checks that none is a file the build reads
	// or writes otherwise.
	Written []Written
}

// Plan is a build ready to run.
type Plan struct {
	Graph    *graph.Graph
	Output   string // the host object
	BuildDir string
	StateDir string // the action log and tool cache: <BuildDir>/.sycbuild
	// Targets are the targets the graph builds (optional ones whose tools
	// are missing are left out).
	Targets []*configs.Target
	// Routes are the SPIR-V routes of its spir64 and spir64_gen targets,
	// by target name (chosen from the inputs where the config names none).
	Routes map[string]configs.SPIRVRoute
	// Tools are the external tools the build runs, each once, in the
	// order of their roles (configs.ExternalTools).
	Tools []*toolchain.Tool
}

// StateDirName is the directory under the build directory where sycbuild
// keeps its state.
const StateDirName = configs.StateDirName

// Stem names the split modules and every per-module file: module_<i>.*.
const Stem = "module"

// planner builds one Plan.
type planner struct {
	cfg    *configs.Config
	opt    Options
	g      *graph.Graph
	finder *toolchain.Finder
	self   *graph.Tool
	warn   func(string)

	warnedVal bool // the missing spirv-val was reported
	// postLinked holds each sycl-post-link run's table by its options:
	// targets that would split the same way share one run.
	postLinked map[string]*graph.Node
	addErr     error // the first action the graph refused
}

// New plans the build cfg describes. Problems with the inputs, the LLVM
// generation or missing tools are reported together, before anything runs.
func New(cfg *configs.Config, opt Options) (*Plan, error) {
	if opt.Versions == nil {
		opt.Versions = toolchain.LoadVersionCache("")
	}
	if opt.Warn == nil {
		opt.Warn = func(string) {}
	}
	selfVersion, err := opt.Versions.SelfVersion()
	if err != nil {
		return nil, fmt.Errorf("identifying the sycbuild executable: %w", err)
	}
	p := &planner{
		cfg:    cfg,
		opt:    opt,
		g:      graph.New(),
		finder: &toolchain.Finder{Configured: cfg.Tools, Versions: opt.Versions, Dir: cfg.Dir},
		self:   &graph.Tool{Name: "sycbuild", Path: "sycbuild", Version: selfVersion},
		warn:   opt.Warn,
	}
	return p.plan()
}

func (p *planner) plan() (*Plan, error) {
	if err := p.checkPaths(); err != nil {
		return nil, err
	}
	in, err := p.inputs()
	if err != nil {
		return nil, err
	}
	targets, linkTool, err := p.resolveTools(in)
	if err != nil {
		return nil, err
	}
	posts, err := p.postLinkOptions(targets)
	if err != nil {
		return nil, err
	}
	linked := p.link(in, linkTool)
	var tables []wrapInput
	for i, t := range targets {
		tables = append(tables, p.target(t, posts[i], linked, in))
	}
	p.wrap(tables)
	if p.addErr != nil {
		return nil, p.addErr
	}
	plan := &Plan{
		Graph:    p.g,
		Output:   p.cfg.Output,
		BuildDir: p.cfg.BuildDir,
		StateDir: filepath.Join(p.cfg.BuildDir, StateDirName),
	}
	plan.Routes = map[string]configs.SPIRVRoute{}
	seen := map[string]bool{}
	found := append([]*toolchain.Tool(nil), linkTool)
	for _, t := range targets {
		plan.Targets = append(plan.Targets, t.cfg)
		if t.route != "" {
			plan.Routes[t.cfg.Name] = t.route
		}
		for _, tool := range t.tools {
			found = append(found, tool)
		}
	}
	roles := configs.ExternalTools()
	found = slices.DeleteFunc(found, func(t *toolchain.Tool) bool { return t == nil })
	slices.SortFunc(found, func(a, b *toolchain.Tool) int {
		return cmp.Or(cmp.Compare(slices.Index(roles, a.Role), slices.Index(roles, b.Role)), strings.Compare(a.Path, b.Path))
	})
	for _, tool := range found {
		if !seen[tool.Path] {
			seen[tool.Path] = true
			plan.Tools = append(plan.Tools, tool)
		}
	}
	return plan, nil
}

// errorList is several problems found together, one per line: those at a
// position (*diag.Error) sorted by file, line and column, then the others
// in the order they were found.
type errorList []error

func (l errorList) Error() string {
	s := slices.Clone(l)
	diag.SortErrors(s)
	var b strings.Builder
	for i, err := range s {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (l errorList) Unwrap() []error { return l }

// add adds an action. The checks before planning (configs' validation,
// checkPaths) leave the graph nothing to refuse; should it refuse one
// anyway, the first refusal is the plan's error, not a crash.
func (p *planner) add(a *graph.Action) {
	if err := p.g.Add(a); err != nil && p.addErr == nil {
		p.addErr = err
	}
}

// inProcess makes an action running one of sycbuild's own tools: run runs
// it from its typed options, in the build's directory dir; args are those
// options rendered as the tool's command line, which the build prints and
// keys the action on.
func (p *planner) inProcess(desc, tool string, args []string, run func(env graph.Env, stdio clopt.Stdio) int, in, out []*graph.Node) *graph.Action {
	return &graph.Action{
		Desc: desc,
		Tool: &graph.Tool{Name: tool, Path: p.self.Path, Version: p.self.Version},
		Argv: append([]string{"sycbuild", tool}, args...),
		Main: func(env graph.Env, _ []string, stdio graph.Stdio) int { return run(env, clopt.Stdio(stdio)) },
		In:   in,
		Out:  out,
	}
}

// path is a path of the config (relative to its directory, or absolute)
// as the planner opens it: relative to the working directory, which is not
// the config's.
func (p *planner) path(name string) string { return basedir.Resolve(p.cfg.Dir, name) }

func graphTool(t *toolchain.Tool) *graph.Tool {
	gt := &graph.Tool{Name: string(t.Role), Path: t.Path, Version: t.Version,
		Check: toolchain.OutputCheck(t.Role), ResponseFiles: toolchain.ResponseFiles(t.Role)}
	if t.Role == configs.ToolOcloc {
		gt.Chatter = toolchain.OclocChatter
		gt.Batch = &graph.Batch{
			Line:    toolchain.OclocBatchLine,
			Argv:    func(list string) []string { return append([]string{t.Path}, toolchain.OclocMultiArgs(list)...) },
			Outputs: toolchain.OclocMultiOutputs,
			Split:   toolchain.OclocMultiSplit,
		}
	}
	return gt
}
