package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/foreach"
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
	List *Node // the input file list
	// Rows, if set, is a file table written before List with one row per
	// item (the split's table): the progress counts the jobs as soon as it
	// exists.
	Rows  *Node
	Dir   string // the directory the outputs go to
	Steps []*Step

	// Fallback, if set, saves a job whose step Fallback.Step fails: the
	// output of step Fallback.From stands in for its output (SPIR-V for
	// a failed ahead-of-time compile), with a warning.
	Fallback *Fallback
	// Isolate, if set, splits the item of a job whose chain failed into
	// parts (one per kernel), so that the build can say which fail: dir
	// is the build's directory, item and outDir are relative to it, and
	// so are the parts' paths.
	Isolate func(dir, item, outDir string) ([]Part, error)

	tmpls []*foreach.Template // per step, made by compile
	// The steps' tools and their parts of a job's key, made by compile:
	// the same for every job.
	toolList []*Tool
	toolKeys []string
}

// Fallback names the step whose failure a fan-out job survives, and the
// earlier step whose output then stands in for its output.
type Fallback struct {
	Step, From int
	// Parts, if set, saves a job by kernel first (with Fanout.Isolate):
	// when only some kernels of its module fail alone, images holds each
	// kernel's image (see PartImage), moved beside the job's outputs, and
	// Parts writes the failed step's output out to stand for all of them
	// (dir is the build's directory; paths are relative to it). It
	// returns the other files it wrote.
	Parts func(dir, out string, images []PartImage) (wrote []string, err error)
	// All accepts a fan-out whose every job fell back as a whole;
	// otherwise that fails the fan-out.
	All bool
}

// Part is one piece of a failed job's item: a module holding one kernel.
type Part struct {
	Name string // what it holds, for messages (the kernel's name)
	Path string
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
	// Pipe sends the step's standard output to the next step's standard
	// input in place of a file (llvm-as … -o - | llvm-spirv - …): the step
	// has no Out, and both name the stream "-" in their Args. The chain
	// then has no file to write, check, hash, rename and remove per item
	// for the step.
	Pipe bool
}

// pipeEnd returns the last step of the pipeline that starts at step k
// (k itself when it does not pipe).
func (f *Fanout) pipeEnd(k int) int {
	for k < len(f.Steps)-1 && f.Steps[k].Pipe {
		k++
	}
	return k
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
	if err := f.checkFallback(); err != nil {
		return bad("%v", err)
	}
	for k, s := range f.Steps {
		if s.Tool == nil || s.Tool.Path == "" {
			return bad("step %d has no tool", k)
		}
		if s.Pipe && (s.Out != nil || k == len(f.Steps)-1) {
			return bad("step %d pipes into the next step: it must have no output file and come before another step", k)
		}
		for _, in := range s.In {
			if in.From < -1 || in.From >= k || (in.From >= 0 && f.Steps[in.From].Out == nil) {
				return bad("step %d reads the output of step %d, which does not come before it or has none", k, in.From)
			}
		}
		if s.Out != nil {
			if err := foreach.CheckExt(s.Out.Ext); err != nil {
				return bad("step %d: %v", k, err)
			}
			if !contains(a.Out, s.Out.List) {
				return bad("step %d's output list %s is not an output", k, s.Out.List.Path)
			}
			if foreach.Stem(s.Out.Placeholder) == "" {
				return bad("step %d's output placeholder %q has no file stem", k, s.Out.Placeholder)
			}
		}
		phs := s.placeholders()
		t := foreach.NewTemplate(s.Args, phs)
		for i, ph := range phs {
			if ph == "" || !t.Uses(i) {
				return bad("step %d: placeholder %q occurs in no argument", k, ph)
			}
		}
	}
	return nil
}

// placeholders lists step k's placeholders: its inputs', then its
// output's.
func (s *Step) placeholders() []string {
	var phs []string
	for _, in := range s.In {
		phs = append(phs, in.Placeholder)
	}
	if s.Out != nil {
		phs = append(phs, s.Out.Placeholder)
	}
	return phs
}

// compile finds the placeholders in the steps' arguments, once per build
// of the fan-out.
func (f *Fanout) compile() {
	// A new list: the units of jobs already decided keep the old one.
	f.tmpls, f.toolList = f.tmpls[:0], make([]*Tool, 0, len(f.Steps))
	for _, s := range f.Steps {
		f.tmpls = append(f.tmpls, foreach.NewTemplate(s.Args, s.placeholders()))
		f.toolList = append(f.toolList, s.Tool)
	}
	f.toolKeys = toolKeys(f.toolList)
}

// checkFallback checks that a fallback's steps exist and write a file, the
// saved one later than the one standing in.
func (f *Fanout) checkFallback() error {
	fb := f.Fallback
	if fb == nil {
		return nil
	}
	if fb.From < 0 || fb.From >= fb.Step || fb.Step >= len(f.Steps) || f.Steps[fb.From].Out == nil || f.Steps[fb.Step].Out == nil {
		return fmt.Errorf("fallback from step %d to step %d: both must be steps with outputs, the first before the second", fb.From, fb.Step)
	}
	return nil
}

func (f *Fanout) outputIn(dir string, k, i int) string {
	o := f.Steps[k].Out
	return foreach.OutputName(dir, o.Placeholder, o.Ext, i)
}

// job is one item's chain, made concrete.
type job struct {
	index   int
	item    string
	argvs   [][]string // per step: executable and arguments
	outputs [][]string // per step: its output files (zero or one)
}

// job returns item i's concrete commands, its placeholders replaced by
// llvm-foreach's rules (foreach.Template).
func (f *Fanout) job(i int, item string) *job { return f.jobIn(f.Dir, i, item) }

// jobIn is job with its outputs in dir.
func (f *Fanout) jobIn(dir string, i int, item string) *job {
	if len(f.tmpls) != len(f.Steps) {
		f.compile()
	}
	j := &job{index: i, item: item}
	out := make([]string, len(f.Steps)) // each step's output, named once
	for k, s := range f.Steps {
		if s.Out != nil {
			out[k] = f.outputIn(dir, k, i)
		}
	}
	for k, s := range f.Steps {
		values := make([]string, 0, len(s.In)+1)
		for _, in := range s.In {
			if in.From < 0 {
				values = append(values, item)
			} else {
				values = append(values, out[in.From])
			}
		}
		var outs []string
		if s.Out != nil {
			values = append(values, out[k])
			outs = []string{out[k]}
		}
		argv := append([]string{s.Tool.Path}, f.tmpls[k].Expand(values)...)
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

// jobName is the name of item i's job (job.name) without the job.
func (f *Fanout) jobName(i int, item string) string {
	for k, s := range f.Steps {
		if s.Out != nil {
			return f.outputIn(f.Dir, k, i)
		}
	}
	return item + "#check"
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
// sycbuild executable. Step k and the steps it pipes into are one
// command: llvm-foreach runs them as "sh -c '<a> | <b>'", their files
// passed to the script as its arguments.
func (f *Fanout) ForeachCommand(self string, k int) []string {
	s := f.Steps[k]
	m := f.pipeEnd(k)
	ins := slices.Clone(s.In)
	tool, args := s.Tool.Path, s.Args
	if m > k {
		ins, tool, args = f.pipeScript(k, m)
	}
	out := f.Steps[m].Out
	argv := []string{self, "llvm-foreach"}
	// Lists in the order their placeholders first occur (the reference
	// pairs placeholders with lists in that order).
	first := func(ph string) int {
		for i, a := range args {
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
	if out != nil {
		argv = append(argv, "--out-replace="+out.Placeholder, "--out-dir="+f.Dir)
		if out.Ext != "" {
			argv = append(argv, "--out-ext="+out.Ext)
		}
		argv = append(argv, "--out-file-list="+out.List.Path, "--deterministic")
	}
	argv = append(argv, "--", tool)
	return append(argv, args...)
}

// pipeScript returns the pipeline of steps k..m as a shell command: the
// inputs it reads, the program ("sh") and its arguments: -c, the script,
// then the script's name and the placeholders of its files, which the
// script names "$1", "$2", ….
func (f *Fanout) pipeScript(k, m int) (ins []StepInput, tool string, args []string) {
	var phs []string
	for s := k; s <= m; s++ {
		for _, in := range f.Steps[s].In {
			if !slices.Contains(phs, in.Placeholder) {
				ins = append(ins, in)
				phs = append(phs, in.Placeholder)
			}
		}
	}
	if out := f.Steps[m].Out; out != nil {
		phs = append(phs, out.Placeholder)
	}
	// A placeholder becomes a marker, NUL and its number, then "$n".
	marks := make([]string, len(phs))
	for i := range phs {
		marks[i] = "\x00" + strconv.Itoa(i+1) + "\x00"
	}
	var script []string
	for s := k; s <= m; s++ {
		st := f.Steps[s]
		var words []string
		for _, w := range append([]string{st.Tool.Path}, foreach.NewTemplate(st.Args, phs).Expand(marks)...) {
			parts := strings.Split(w, "\x00")
			var b strings.Builder
			for i, p := range parts {
				switch {
				case i%2 == 1:
					b.WriteString(`"$` + p + `"`)
				case p != "" || len(parts) == 1:
					b.WriteString(shellWord(p))
				}
			}
			words = append(words, b.String())
		}
		script = append(script, strings.Join(words, " "))
	}
	return ins, "sh", append([]string{"-c", strings.Join(script, " | "), "sh"}, phs...)
}

func contains(ns []*Node, n *Node) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}
