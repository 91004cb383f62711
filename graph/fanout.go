package graph

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Fanout runs a chain of external commands once per item of a file list,
// all items in parallel on the build's pool: what the DPC++ driver does with
// one llvm-foreach per tool. The graph does not change with the number of
// items, which is known only once the list exists.
//
// Item i runs the steps in order; step k writes <Dir>/<stem>_<i>.<ext>,
// where stem is its output placeholder's file stem, exactly the name
// "llvm-foreach --deterministic --out-dir=Dir --out-replace=<placeholder>"
// gives it, and each step's outputs are listed in its output list. So the
// dry run can print every step as one llvm-foreach command that rebuilds the
// same files. Every item is its own cached job: when one module of a split
// changes, only its chain runs again.
type Fanout struct {
	List  *Node  // the input file list
	Dir   string // the directory the outputs go to
	Steps []*Step
}

// Step is one command of the chain.
type Step struct {
	Tool *Tool
	// Args are the arguments after the executable (Tool.Path); they contain
	// the placeholders of In and Out. Every occurrence of a placeholder is
	// replaced, the longest placeholder first where several start at the
	// same place (llvm-foreach's rule in sycbuild).
	Args []string
	In   []StepInput
	Out  *StepOutput // nil for a step that writes nothing (a validator)
}

// StepInput is one placeholder of a step standing for an input file.
type StepInput struct {
	Placeholder string
	// From is -1 for the item of the fan-out's list, or k for the output of
	// step k (an earlier step).
	From int
}

// StepOutput is the placeholder standing for a step's output file.
type StepOutput struct {
	Placeholder string // its stem names the files: "module.spv" → module_<i>.spv
	Ext         string // the files' extension, without the dot
	List        *Node  // the list of the step's outputs, in item order
}

// nodes returns the lists the fan-out reads and writes.
func (f *Fanout) nodes() []*Node {
	out := []*Node{f.List}
	for _, s := range f.Steps {
		if s.Out != nil {
			out = append(out, s.Out.List)
		}
	}
	return out
}

func (f *Fanout) check(a *Action) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("graph: fan-out %q: %s", a.Desc, fmt.Sprintf(format, args...))
	}
	if len(f.Steps) == 0 {
		return bad("no steps")
	}
	if !contains(a.In, f.List) {
		return bad("its list %s is not an input", f.List.Path)
	}
	for k, s := range f.Steps {
		if s.Tool == nil || s.Tool.Path == "" {
			return bad("step %d has no tool", k)
		}
		phs := []string{}
		for _, in := range s.In {
			if in.From < -1 || in.From >= k || (in.From >= 0 && f.Steps[in.From].Out == nil) {
				return bad("step %d reads the output of step %d, which does not come before it or has none", k, in.From)
			}
			phs = append(phs, in.Placeholder)
		}
		if s.Out != nil {
			if !contains(a.Out, s.Out.List) {
				return bad("step %d's output list %s is not an output", k, s.Out.List.Path)
			}
			if stem(s.Out.Placeholder) == "" {
				return bad("step %d's output placeholder %q has no file stem", k, s.Out.Placeholder)
			}
			phs = append(phs, s.Out.Placeholder)
		}
		for _, ph := range phs {
			if ph == "" || !anyContains(s.Args, ph) {
				return bad("step %d: placeholder %q occurs in no argument", k, ph)
			}
		}
	}
	return nil
}

// output returns item i's output of step k.
func (f *Fanout) output(k, i int) string {
	o := f.Steps[k].Out
	name := fmt.Sprintf("%s_%d", stem(o.Placeholder), i)
	if o.Ext != "" {
		name += "." + o.Ext
	}
	return filepath.Join(f.Dir, name)
}

// job is one item's chain, made concrete.
type job struct {
	index   int
	item    string
	argvs   [][]string // per step: executable and arguments
	outputs [][]string // per step: its output files (zero or one)
}

// job returns item i's concrete commands.
func (f *Fanout) job(i int, item string) *job {
	j := &job{index: i, item: item}
	for k, s := range f.Steps {
		repl := map[string]string{}
		for _, in := range s.In {
			if in.From < 0 {
				repl[in.Placeholder] = item
			} else {
				repl[in.Placeholder] = f.output(in.From, i)
			}
		}
		var outs []string
		if s.Out != nil {
			repl[s.Out.Placeholder] = f.output(k, i)
			outs = []string{f.output(k, i)}
		}
		argv := []string{s.Tool.Path}
		for _, a := range s.Args {
			if r, ok := repl[a]; ok && strings.HasPrefix(r, "-") {
				argv = append(argv, "./"+r) // a file, not an option (see dashSafe)
				continue
			}
			argv = append(argv, substitute(a, repl))
		}
		j.argvs = append(j.argvs, argv)
		j.outputs = append(j.outputs, outs)
	}
	return j
}

// allOutputs lists the job's output files in step order.
func (j *job) allOutputs() []string {
	var out []string
	for _, o := range j.outputs {
		out = append(out, o...)
	}
	return out
}

// name identifies the job in the build log: its first output file.
func (j *job) name() string {
	for _, o := range j.outputs {
		if len(o) > 0 {
			return o[0]
		}
	}
	return j.item + "#check"
}

// ForeachCommand returns step k as the llvm-foreach command line that does
// the same for every item (what the dry run prints); self names the
// sycbuild executable.
func (f *Fanout) ForeachCommand(self string, k int) []string {
	s := f.Steps[k]
	argv := []string{self, "llvm-foreach"}
	// Lists in the order their placeholders first occur (the reference
	// pairs placeholders with lists in that order).
	ins := append([]StepInput(nil), s.In...)
	first := func(ph string) int {
		for i, a := range s.Args {
			if strings.Contains(a, ph) {
				return i<<20 + strings.Index(a, ph)
			}
		}
		return 1 << 62
	}
	slices.SortStableFunc(ins, func(a, b StepInput) int { return cmp.Compare(first(a.Placeholder), first(b.Placeholder)) })
	for _, in := range ins {
		list := f.List.Path
		if in.From >= 0 {
			list = f.Steps[in.From].Out.List.Path
		}
		argv = append(argv, "--in-file-list="+list, "--in-replace="+in.Placeholder)
	}
	if s.Out != nil {
		argv = append(argv, "--out-replace="+s.Out.Placeholder, "--out-dir="+f.Dir)
		if s.Out.Ext != "" {
			argv = append(argv, "--out-ext="+s.Out.Ext)
		}
		argv = append(argv, "--out-file-list="+s.Out.List.Path, "--deterministic")
	}
	argv = append(argv, "--", s.Tool.Path)
	return append(argv, s.Args...)
}

// substitute replaces every placeholder occurrence in arg, scanning once,
// the longest placeholder first where several start at the same byte.
func substitute(arg string, repl map[string]string) string {
	var b strings.Builder
	lit := 0
	for i := 0; i < len(arg); {
		best := ""
		for ph := range repl {
			if len(ph) > len(best) && strings.HasPrefix(arg[i:], ph) {
				best = ph
			}
		}
		if best == "" {
			i++
			continue
		}
		b.WriteString(arg[lit:i])
		b.WriteString(repl[best])
		i += len(best)
		lit = i
	}
	if lit == 0 {
		return arg
	}
	b.WriteString(arg[lit:])
	return b.String()
}

// stem is a file name without directory and extension, as LLVM's
// sys::path::stem.
func stem(p string) string {
	b := filepath.Base(p)
	if b == "." || b == ".." {
		return b
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}

func contains(ns []*Node, n *Node) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

func anyContains(args []string, s string) bool {
	for _, a := range args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}
