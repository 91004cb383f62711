package report

import (
	"strconv"

	"github.com/sycbuild/sycbuild/graph"
)

// fallback is a module job that survived the failure of one of its
// commands: an earlier command's output stands in for the failed one's.
type fallback struct {
	Target, Desc, Module string
	What                 string // what failed and what stands in
	Failed               []failure
}

// failure is an event that failed.
type failure struct {
	Kind, Desc, Command, Exit, Err string
}

// failures lists what failed with its own error: commands, jobs whose
// error is not their failed command's, and actions; a fan-out that failed
// because of its jobs is not listed again. The jobs that fell back are
// listed apart, with the commands that failed in them.
func failures(events []record) ([]failure, []fallback) {
	saved := map[jobKey]int{} // index in fellBack
	var fellBack []fallback
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindJob && e.fallback != "" {
			saved[jobKey{e.action, e.item}] = len(fellBack)
			fellBack = append(fellBack, fallback{Target: e.target, Desc: e.desc, Module: e.item, What: e.fallback})
		}
	}
	commandErr := map[jobKey]string{}
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand && e.err != "" {
			k := jobKey{e.action, e.item}
			if j, ok := saved[k]; ok {
				fellBack[j].Failed = append(fellBack[j].Failed, failureOf(e))
			} else {
				commandErr[k] = e.err
			}
		}
	}
	var list []failure
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand {
			if _, ok := saved[jobKey{e.action, e.item}]; ok {
				continue
			}
		}
		if e.outcome != graph.Failed && e.err == "" {
			continue
		}
		if e.kind == graph.KindJob && e.err == commandErr[jobKey{e.action, e.item}] {
			continue
		}
		if e.kind == graph.KindFanout && e.err == "" {
			continue
		}
		list = append(list, failureOf(e))
	}
	return list, fellBack
}

// failureOf describes a failed event.
func failureOf(e *record) failure {
	f := failure{Kind: kindName(e.kind), Desc: e.desc, Err: e.err}
	if len(e.argv) > 0 {
		f.Command = graph.ShellQuote(e.argv)
	}
	if e.usage != nil {
		f.Exit = strconv.Itoa(e.usage.ExitCode)
		if e.usage.ExitCode < 0 {
			f.Exit = "signal"
		}
	}
	return f
}
