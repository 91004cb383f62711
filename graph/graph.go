// Package graph is sycbuild's build executor: a small DAG of actions over
// files, run on one pool of job tokens, with an action cache, explanations,
// a dry-run printer, progress, a Chrome trace and DOT output.
//
// The core follows ninja's split of responsibilities:
//
//   - a Node is one file and owns only facts about it (path, kind, producer);
//   - an Action owns one tool invocation: its command, tool identity,
//     declared inputs and outputs, and how it runs (an external command, an
//     in-process tool's Main, or a fan-out over a file list);
//   - the Graph interns paths and holds the actions, in the order they were
//     added, which is a topological order (an action's inputs must already
//     have their producers when it is added, so no cycle can be built);
//   - the log (log.go) remembers, per action, the key it was built with and
//     the content hashes of its inputs and outputs;
//   - the builder (build.go) decides what is up to date and runs the rest
//     on the job tokens of a jobs.Pool, handed out longest work first
//     (ready.go); every external command goes through Options.Runner
//     (jobs.Local, or a cluster's runner), which says where it ran, and a
//     command whose machine failed under it runs once more elsewhere
//     (run.go).
//
// Up-to-date checks use content hashes, never modification times alone
// (mtime and size only let a file's recorded hash be reused), so restat is
// built in: an action whose outputs come out byte-identical leaves the keys
// of its dependants unchanged, and they are not run again.
package graph

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// FileKind says whether a file names other files.
type FileKind int

const (
	// Plain is an ordinary file.
	Plain FileKind = iota
	// List is a file list: one path per line, blank lines ignored.
	List
	// Table is a file table: an optional "[title|…]" line, then rows of
	// '|'-separated cells, each cell a path.
	Table
)

// Node is one file of the graph.
type Node struct {
	Path     string
	Kind     FileKind
	producer *Action
	users    []*Action
}

// Producer returns the action that writes the file, or nil for a source.
func (n *Node) Producer() *Action { return n.producer }

// Tool identifies the program an action runs, for the action's key: a
// change of path or version reruns the action.
type Tool struct {
	Name    string // role, for messages ("llvm-spirv")
	Path    string // what is run, as printed ("llvm-spirv-15", "/opt/bin/ocloc")
	Version string // the tool's own version text, or a content hash
	// Chatter are lines the tool prints on every success ("Build
	// succeeded."); they are not shown when it succeeds. An entry ending
	// in '*' is every line that starts with the rest ("Build succeeded for
	// : *", one per device). A failing command's output is always shown
	// whole.
	Chatter []string
	// Check, if set, says why a file the tool wrote cannot be what it
	// writes (not SPIR-V, not an ELF object, …), or returns nil. An output
	// that fails it, or that is empty, fails the command even when it
	// exited 0 (a compiler that ran out of disk space may): it is removed,
	// never recorded.
	// head is the file's first bytes (up to 64 KiB; all of a smaller
	// file), size its size, and r reads the whole file.
	Check func(head []byte, size int64, r io.ReaderAt) error
	// ResponseFiles says the tool reads arguments from "@file" (LLVM's
	// tools do): a command line too long for the system is passed that
	// way.
	ResponseFiles bool
	// Memory is a conservative guess of the tool's peak memory, in bytes,
	// for the memory budget when no earlier run of it tells (0: the
	// builder's default).
	Memory int64
	// Timeout, if set, stops a command of the tool that runs longer; it
	// fails like any other ("timed out after …").
	Timeout time.Duration
	// Batch, if set, runs the tool's commands of several fan-out jobs as
	// one process where they are the jobs' last (see Batch).
	Batch *Batch
}

func (t *Tool) identity() string {
	if t == nil {
		return ""
	}
	return t.Path + "\x00" + t.Version
}

// MainFunc runs an in-process tool: args are its command-line arguments
// after the tool's name. A tool planned from typed options may ignore
// them: they are its options written as the DPC++ tool's command line,
// which the build prints and keys on.
type MainFunc func(env Env, args []string, stdio Stdio) int

// Stdio is an in-process tool's standard input, output and error.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// Env is what an in-process tool is given besides its arguments.
type Env struct {
	// Dir is the directory the action's relative paths are relative to
	// (Options.Dir; "" is the current one).
	Dir string
	// Tokens lends the build's free job tokens to the tool's extra
	// workers: its action holds one token already, and -j N stays N jobs
	// in all.
	Tokens Lender
}

// A Lender lends job tokens: TryAcquire takes one if one is free at once,
// and never waits; Release gives one back.
type Lender interface {
	TryAcquire() bool
	Release()
}

// Action is one step of the build.
type Action struct {
	// Desc is the short text progress lines show ("[spir64] sycl-post-link").
	Desc string
	// Tool is the program run; its identity is part of the key.
	Tool *Tool
	// Argv is the full command line. For an external command Argv[0] is the
	// executable; an output path may appear as a whole argument or after an
	// '=' ("-o", "out.bc" or "--create=out.fatbin"), and is replaced there
	// by a temporary name while the command runs (outputs appear atomically).
	// For an in-process tool Argv is "sycbuild", the tool's name, then its
	// arguments, which Main receives (Argv[2:]); printed commands put
	// Options.Self in place of "sycbuild".
	Argv []string
	// Main, if set, runs the action in-process.
	Main MainFunc
	// Fanout, if set, makes the action a fan-out over a file list; Argv and
	// Main are unused.
	Fanout *Fanout
	// In and Out are the declared inputs and outputs.
	In, Out []*Node
	// OwnsNamed says the files named by the action's List/Table outputs are
	// its outputs too (sycl-post-link writes a table and the modules it
	// names; file-table-tform writes a table naming others' files).
	OwnsNamed bool

	id    int
	users []*Action
}

// ID is the action's index in the graph.
func (a *Action) ID() int { return a.id }

// Graph is the set of files and actions of one build.
type Graph struct {
	nodes   map[string]*Node
	order   []*Node
	actions []*Action
}

// New returns an empty graph.
func New() *Graph { return &Graph{nodes: map[string]*Node{}} }

// File returns the node for path, creating it with kind if it is new. A
// path must not contain tabs, newlines or other control characters (the
// build log is line and tab separated).
func (g *Graph) File(path string, kind FileKind) *Node {
	if n := g.nodes[path]; n != nil {
		if kind > n.Kind {
			n.Kind = kind
		}
		return n
	}
	n := &Node{Path: path, Kind: kind}
	g.nodes[path] = n
	g.order = append(g.order, n)
	return n
}

// Add adds an action. Each output may have only one producer, and every
// input that some action produces must have been added before; so the
// actions' order is a topological order and the graph has no cycle.
func (g *Graph) Add(a *Action) error {
	if a.Main == nil && a.Fanout == nil && len(a.Argv) == 0 {
		return fmt.Errorf("graph: action %q has no command", a.Desc)
	}
	if len(a.Out) == 0 {
		return fmt.Errorf("graph: action %q has no outputs", a.Desc)
	}
	all := append(append([]*Node{}, a.In...), a.Out...)
	if a.Fanout != nil {
		all = append(all, a.Fanout.nodes()...)
	}
	for _, n := range all {
		if strings.ContainsFunc(n.Path, func(r rune) bool { return r < ' ' || r == 0x7f }) || n.Path == "" {
			return fmt.Errorf("graph: unusable file name %q in action %q", n.Path, a.Desc)
		}
	}
	for _, n := range a.Out {
		if n.producer != nil {
			return fmt.Errorf("graph: %s is an output of both %q and %q", n.Path, n.producer.Desc, a.Desc)
		}
		if len(n.users) > 0 {
			return fmt.Errorf("graph: %s is an output of %q but an input of the earlier action %q (add producers first)", n.Path, a.Desc, n.users[0].Desc)
		}
	}
	if a.Fanout != nil {
		if err := a.Fanout.check(a); err != nil {
			return err
		}
	}
	for _, n := range a.In {
		for _, o := range a.Out {
			if n == o {
				return fmt.Errorf("graph: %s is both an input and an output of %q", n.Path, a.Desc)
			}
		}
	}
	if a.Fanout == nil {
		dashSafe(a)
	}
	a.id = len(g.actions)
	for _, n := range a.In {
		n.users = append(n.users, a)
		if p := n.producer; p != nil && (len(p.users) == 0 || p.users[len(p.users)-1] != a) {
			p.users = append(p.users, a)
		}
	}
	for _, n := range a.Out {
		n.producer = a
	}
	g.actions = append(g.actions, a)
	return nil
}

// dashSafe writes every argument of a's command that is one of its files
// and starts with '-' as "./-…", so that no tool takes the file for an
// option (an input called -help.ll).
func dashSafe(a *Action) {
	first := 1 // after the executable
	if a.Main != nil {
		first = 2 // after "sycbuild" and the tool's name
	}
	files := map[string]bool{}
	for _, n := range append(append([]*Node{}, a.In...), a.Out...) {
		if strings.HasPrefix(n.Path, "-") {
			files[n.Path] = true
		}
	}
	for i := first; i < len(a.Argv) && len(files) > 0; i++ {
		if files[a.Argv[i]] {
			a.Argv[i] = "./" + a.Argv[i]
		}
	}
}

// Actions returns the actions in the order they were added.
func (g *Graph) Actions() []*Action { return g.actions }

// Files returns the files in the order they were first mentioned.
func (g *Graph) Files() []*Node { return g.order }

// deps returns the actions that produce a's inputs, without repeats.
func (a *Action) deps() []*Action {
	var out []*Action
	seen := map[*Action]bool{}
	for _, n := range a.In {
		if p := n.producer; p != nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
