package graph

import (
	"errors"
	"fmt"
	"io/fs"
)

// A unit is one cached piece of work: an action, or one item's chain of a
// fan-out. The builder first decides (this file) whether a unit must run,
// from its key and its record in the build log, and why; running it (exec.go)
// is a separate step that knows nothing of the decision. A unit is also what
// a shared cache stores.
type unit struct {
	name  string     // its record's name in the build log: its first output
	tools []*Tool    // the tool of each command
	argvs [][]string // the commands; an in-process tool's is its one command line
	outs  [][]string // each command's declared outputs
	main  MainFunc   // set: the unit is an in-process tool (one command)
	// named are outputs that are lists or tables whose named files are
	// outputs too (an action with OwnsNamed).
	named map[string]FileKind
	parts keyParts
	prev  *record // what the log held before it ran
	// event is what the observer is told of the unit; steps says that each
	// command of a chain is also told as a KindCommand event.
	event Event
	steps bool
	// reserved is the memory reserved for it while it runs (memory.go);
	// memory is what its runner is told it needs (jobs.Request.Memory).
	reserved, memory int64
	// fanout and index are a fan-out job's action and item index (for its
	// fallback and isolation, isolate.go).
	fanout *Fanout
	index  int
	// extra are files a job wrote besides its declared outputs (a
	// per-kernel fallback's images), recorded with them.
	extra []string
}

// outputs lists the unit's declared outputs in command order.
func (u *unit) outputs() []string {
	var out []string
	for _, o := range u.outs {
		out = append(out, o...)
	}
	return out
}

// actionKey is an action's key. A fan-out's is the key of the whole: its
// template, its list and the items' contents; when it matches the record
// and every output is intact, no job needs to be looked at (a no-op
// rebuild stays cheap).
func (b *builder) actionKey(a *Action) (keyParts, error) {
	inputs, err := b.inputStates(a.In)
	if err != nil {
		return keyParts{}, err
	}
	var kp keyParts
	if a.Fanout != nil {
		tools, argvs := a.Fanout.template()
		kp = makeKey(toolKeys(tools), argvs, inputs)
	} else {
		kp = makeKey(toolKeys([]*Tool{a.Tool}), [][]string{a.Argv}, inputs)
	}
	kp.keep = true
	return kp, nil
}

// actionUnit returns the unit of an action that is not a fan-out.
func (b *builder) actionUnit(a *Action, e Event) (*unit, error) {
	parts, err := b.actionKey(a)
	if err != nil {
		return nil, err
	}
	u := &unit{name: a.Out[0].Path, tools: []*Tool{a.Tool}, argvs: [][]string{a.Argv}, outs: [][]string{paths(a.Out)},
		main: a.Main, event: e, parts: parts}
	if a.OwnsNamed {
		u.named = map[string]FileKind{}
		for _, n := range a.Out {
			if n.Kind != Plain {
				u.named[n.Path] = n.Kind
			}
		}
	}
	return u, nil
}

// jobUnit returns the unit of item j's chain of the fan-out a.
func (b *builder) jobUnit(a *Action, j *job) (*unit, error) {
	item, err := b.log.state(b.opt.Dir, j.item)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%s (named by %s) does not exist", j.item, a.Fanout.List.Path)
		}
		return nil, err
	}
	u := &unit{name: j.name(), tools: a.Fanout.toolList, argvs: j.argvs, outs: j.outputs, steps: true, fanout: a.Fanout, index: j.index,
		event: Event{Kind: KindJob, Action: a.id, Desc: a.Desc + " " + j.item, Tool: a.Fanout.Steps[0].Tool.Name,
			Item: j.item, Outputs: j.allOutputs(), Slot: -1}}
	u.parts = makeKey(a.Fanout.toolKeys, u.argvs, []fileState{item})
	u.parts.wordsChanged = b.templateChanged(a)
	return u, nil
}

// mustRun decides whether a unit runs: not when its record matches its key
// and its recorded outputs are intact. Otherwise the observer is told why.
func (b *builder) mustRun(u *unit) bool {
	u.prev = b.log.get(u.name)
	ok, reasons := b.upToDate(u.name, u.parts)
	if !ok {
		b.obs.OutOfDate(u.name, reasons)
	}
	return !ok
}

// keyParts are the parts of an action's key, kept apart so that a change
// can be explained.
type keyParts struct {
	key   string
	tools []string
	cmd   string
	// words are the command lines, each followed by a "\x00" word; keep
	// says to remember them (commandWords): an action's or a fan-out's
	// template, not a job's.
	words []string
	keep  bool
	// wordsChanged, for a job, is what changed in its fan-out's template
	// (its own words are not kept).
	wordsChanged string
	inputs       []fileState
}

// toolKeys are the tools' parts of a key: each one's identity, hashed.
func toolKeys(tools []*Tool) []string {
	keys := make([]string, len(tools))
	for i, t := range tools {
		keys[i] = hashStrings(t.identity())
	}
	return keys
}

// makeKey makes the key of commands run by tools (their toolKeys), which
// the parts keep, not copy.
func makeKey(tools []string, argvs [][]string, inputs []fileState) keyParts {
	kp := keyParts{inputs: inputs, tools: tools}
	var cmd []string
	for _, argv := range argvs {
		cmd = append(cmd, argv...)
		cmd = append(cmd, "\x00")
	}
	kp.cmd = hashStrings(cmd...)
	kp.words = cmd
	all := append(append([]string{}, kp.tools...), kp.cmd)
	for _, in := range inputs {
		all = append(all, in.path, in.hash)
	}
	kp.key = hashStrings(all...)
	return kp
}

// inputStates returns the states of files and of the files they name.
func (b *builder) inputStates(nodes []*Node) ([]fileState, error) {
	var out []fileState
	seen := map[string]bool{}
	add := func(p, via string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		st, err := b.log.state(b.opt.Dir, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if via != "" {
					return fmt.Errorf("%s (named by %s) does not exist", p, via)
				}
				return fmt.Errorf("input %s does not exist", p)
			}
			return err
		}
		out = append(out, st)
		return nil
	}
	for _, n := range nodes {
		if err := add(n.Path, ""); err != nil {
			return nil, err
		}
		if n.Kind == Plain {
			continue
		}
		named, err := namedFiles(b.opt.Dir, n.Path, n.Kind)
		if err != nil {
			return nil, err
		}
		for _, p := range named {
			if err := add(p, n.Path); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// upToDate says whether name's record matches parts and its outputs are
// still the ones recorded; if not, it says why.
func (b *builder) upToDate(name string, kp keyParts) (bool, []string) {
	rec := b.log.get(name)
	if rec == nil {
		return false, []string{"no record of an earlier build"}
	}
	if rec.key != kp.key {
		return false, diffParts(rec, kp, b.cmds.get(name))
	}
	for _, o := range rec.outputs {
		st, err := b.log.state(b.opt.Dir, o.path)
		switch {
		case err != nil:
			return false, []string{"output " + o.path + " is missing"}
		case st.hash != o.hash:
			return false, []string{"output " + o.path + " changed since it was built"}
		}
	}
	return true, nil
}

// diffParts says which parts of a key changed; oldWords are the command
// words the record was built with, when they were kept.
func diffParts(rec *record, kp keyParts, oldWords []string) []string {
	var why []string
	if fmt.Sprint(rec.tools) != fmt.Sprint(kp.tools) {
		why = append(why, "the tool changed (its path or version)")
	}
	if rec.cmd != kp.cmd {
		if d := changedWords(oldWords, kp.words); oldWords != nil && d != "" {
			why = append(why, "the command line changed: "+d)
		} else if kp.wordsChanged != "" {
			why = append(why, "the command line changed: "+kp.wordsChanged)
		} else {
			why = append(why, "the command line changed")
		}
	}
	old := map[string]string{}
	for _, in := range rec.inputs {
		old[in.path] = in.hash
	}
	cur := map[string]bool{}
	for _, in := range kp.inputs {
		cur[in.path] = true
		switch h, ok := old[in.path]; {
		case !ok:
			why = append(why, "input "+in.path+" is new")
		case h != in.hash:
			why = append(why, "input "+in.path+" changed")
		}
	}
	for _, in := range rec.inputs {
		if !cur[in.path] {
			why = append(why, "input "+in.path+" is no longer used")
		}
	}
	if len(why) == 0 {
		why = append(why, "the inputs were reordered")
	}
	return why
}
