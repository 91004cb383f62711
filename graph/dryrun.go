package graph

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// dryRun prints the commands of every action that would run, in graph
// order, as a shell script, and runs nothing. An action would run when its
// record does not match, or when an action it depends on would run (its
// output may change, so it cannot be checked yet).
func (b *builder) dryRun() error {
	w := b.opt.Script
	if w == nil {
		w = io.Discard
	}
	would := make([]bool, len(b.g.actions))
	made := map[string]bool{}
	for _, a := range b.g.actions {
		var reasons []string
		for _, d := range a.deps() {
			if would[d.id] {
				reasons = []string{"it depends on " + d.Out[0].Path + ", which would be rebuilt"}
				break
			}
		}
		if reasons == nil {
			parts, err := b.actionKey(a)
			if err != nil {
				reasons = []string{err.Error()}
			} else if ok, why := b.upToDate(a.Out[0].Path, parts); ok {
				b.res.UpToDate++
				continue
			} else {
				reasons = why
			}
		}
		would[a.id] = true
		b.res.Ran++
		b.obs.OutOfDate(a.Out[0].Path, reasons)
		dirs := []string{}
		for _, o := range a.Out {
			dirs = append(dirs, filepath.Dir(o.Path))
		}
		if a.Fanout != nil {
			dirs = append(dirs, a.Fanout.Dir)
		}
		for _, d := range dirs {
			if d == "." || made[d] {
				continue
			}
			if fi, err := os.Stat(b.path(d)); err != nil || !fi.IsDir() {
				fmt.Fprintf(w, "mkdir -p %s\n", shellWord(d))
			}
			for ; d != "." && d != "/" && !made[d]; d = filepath.Dir(d) {
				made[d] = true // mkdir -p made its parents too
			}
		}
		if a.Fanout != nil {
			for k := 0; k < len(a.Fanout.Steps); k = a.Fanout.pipeEnd(k) + 1 {
				fmt.Fprintln(w, ShellQuote(a.Fanout.ForeachCommand(b.self(), k)))
			}
		} else {
			fmt.Fprintln(w, ShellQuote(b.printed(a)))
		}
	}
	return nil
}
