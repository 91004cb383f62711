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

// failures lists what failed with its own error: actions, jobs (with
// the command of theirs that failed, and the job's error, which says more:
// which kernels fail alone), commands outside a failed job; a fan-out that
// failed because of its jobs is not listed again. The jobs that fell back
// are listed apart, with the commands that failed in them.
func failures(events []record) ([]failure, []fallback) {
	saved := map[jobKey]int{} // index in fellBack
	var fellBack []fallback
	failedJob := map[jobKey]bool{}
	for i := range events {
		e := &events[i]
		if e.kind != graph.KindJob {
			continue
		}
		k := jobKey{e.action, e.item}
		if e.fallback != "" {
			saved[k] = len(fellBack)
			fellBack = append(fellBack, fallback{Target: e.target, Desc: e.desc, Module: e.item, What: e.fallback})
		}
		if e.outcome == graph.Failed {
			failedJob[k] = true
		}
	}
	failedCommand := map[jobKey]*record{}
	for i := range events {
		e := &events[i]
		if e.kind == graph.KindCommand && e.err != "" {
			k := jobKey{e.action, e.item}
			if j, ok := saved[k]; ok {
				fellBack[j].Failed = append(fellBack[j].Failed, failureOf(e))
			} else if failedCommand[k] == nil {
				failedCommand[k] = e
			}
		}
	}
	var list []failure
	for i := range events {
		e := &events[i]
		k := jobKey{e.action, e.item}
		switch {
		case e.outcome != graph.Failed && e.err == "":
		case e.kind == graph.KindFanout && e.err == "":
		case e.kind == graph.KindCommand && (failedJob[k] || hasKey(saved, k)):
		case e.kind == graph.KindJob && failedCommand[k] != nil:
			f, c := failureOf(e), failureOf(failedCommand[k])
			f.Command, f.Exit = c.Command, c.Exit
			if f.Err == "" {
				f.Err = c.Err
			}
			list = append(list, f)
		default:
			list = append(list, failureOf(e))
		}
	}
	return list, fellBack
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
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
