package conformance

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Case says how the runner treats one peer test file. Each tool's cases
// live in a file of their own (cases_<tool>.go) that calls Register from
// an init function; a test file no case names is reported as skipped,
// "not yet covered".
type Case struct {
	// File is the test's path below the conformance directory, with '/'
	// ("file-table-tform/file-table-tform.test").
	File string
	// Skip, when set, skips the whole test with this reason.
	Skip string
	// Needs are external tools the test runs (looked up on PATH). A
	// missing one skips the test, or fails it in CI.
	Needs []string
	// Aliases put commands on the test's PATH under other names, e.g.
	// {"llvm-dis": "llvm-dis-19"}. FileCheck (FileCheck-19), not and count
	// are always there.
	Aliases map[string]string
	// Missing, when set, says which behaviour sycbuild lacks for this test
	// to pass. The test runs and is reported MISSING when it fails; when it
	// passes it fails, so that the mark goes with the behaviour's arrival.
	Missing string
	// Adapts are visible changes to the test's RUN lines, applied in
	// order; each is printed with its reason. An adaptation that matches
	// no RUN line fails the test, so none outlives the line it was for.
	Adapts []Adapt
}

type adaptKind int

const (
	adaptSkip adaptKind = iota
	adaptRewrite
	adaptReplace
	adaptAdd
)

// Adapt is one change to a test's RUN lines; make it with SkipRun,
// RewriteRun, ReplaceRun or AddRun. Matching is on the RUN command as
// written in the test (before substitution, continuations joined).
type Adapt struct {
	kind           adaptKind
	match          string
	old, new, line string
	reason         string
}

// SkipRun drops the RUN lines containing match (e.g. a line driving a tool
// sycbuild does not replace).
func SkipRun(match, reason string) Adapt {
	return Adapt{kind: adaptSkip, match: match, reason: reason}
}

// RewriteRun replaces old by new in the RUN lines containing match.
func RewriteRun(match, old, new, reason string) Adapt {
	return Adapt{kind: adaptRewrite, match: match, old: old, new: new, reason: reason}
}

// ReplaceRun replaces the RUN lines containing match by line (lit
// substitutions apply to it).
func ReplaceRun(match, line, reason string) Adapt {
	return Adapt{kind: adaptReplace, match: match, line: line, reason: reason}
}

// AddRun appends a RUN line after the test's own.
func AddRun(line, reason string) Adapt {
	return Adapt{kind: adaptAdd, line: line, reason: reason}
}

// String describes the adaptation for the report.
func (a Adapt) String() string {
	switch a.kind {
	case adaptSkip:
		return fmt.Sprintf("skipped RUN lines containing %q: %s", a.match, a.reason)
	case adaptRewrite:
		return fmt.Sprintf("in RUN lines containing %q, %q -> %q: %s", a.match, a.old, a.new, a.reason)
	case adaptReplace:
		return fmt.Sprintf("RUN lines containing %q replaced by %q: %s", a.match, a.line, a.reason)
	default:
		return fmt.Sprintf("added RUN line %q: %s", a.line, a.reason)
	}
}

// apply applies the adaptations to runs; it fails on one that matches
// nothing.
func applyAdapts(runs []RunLine, adapts []Adapt) ([]RunLine, error) {
	for _, a := range adapts {
		if a.kind == adaptAdd {
			runs = append(runs, RunLine{Line: 0, Text: a.line})
			continue
		}
		var out []RunLine
		hit := false
		for _, r := range runs {
			if !strings.Contains(r.Text, a.match) {
				out = append(out, r)
				continue
			}
			switch a.kind {
			case adaptSkip:
				hit = true
				continue
			case adaptRewrite:
				if strings.Contains(r.Text, a.old) {
					hit = true
					r.Text = strings.ReplaceAll(r.Text, a.old, a.new)
				}
			case adaptReplace:
				hit = true
				r.Text = a.line
			}
			out = append(out, r)
		}
		if !hit {
			return nil, fmt.Errorf("adaptation matches no RUN line: %s", a)
		}
		runs = out
	}
	return runs, nil
}

var (
	regMu         sync.Mutex
	registry      = map[string]Case{}
	extraFeatures = map[string]bool{}
	extraSubs     = map[string]string{}
)

// Register adds cases. Registering one test file twice panics (two cases
// files claiming one test is a mistake to fix at once).
func Register(cases ...Case) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, c := range cases {
		if _, dup := registry[c.File]; dup {
			panic("conformance: test registered twice: " + c.File)
		}
		registry[c.File] = c
	}
}

// AddFeature makes a lit feature available to REQUIRES/UNSUPPORTED/XFAIL
// (system-<os> and shell always are).
func AddFeature(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	extraFeatures[name] = true
}

// AddSubstitution defines a lit substitution such as "%clang" → "clang-19".
func AddSubstitution(name, value string) {
	regMu.Lock()
	defer regMu.Unlock()
	if !strings.HasPrefix(name, "%") {
		panic("conformance: a substitution starts with '%': " + name)
	}
	extraSubs[name] = value
}

// Cases returns the registered cases sorted by file.
func Cases() []Case {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]Case, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// Lookup returns the case registered for file.
func Lookup(file string) (Case, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	c, ok := registry[file]
	return c, ok
}
