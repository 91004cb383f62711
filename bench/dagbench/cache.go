package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cleanBuild is one build of the AOT project in a fresh directory.
type cleanBuild struct {
	wall     time.Duration // the sycbuild process, start to exit
	build    float64       // the build itself, as the trace's wall_seconds (s)
	commands int           // external commands run: the trace's spans with a child's rusage
	tools    map[string]int
	// local and remote are the actions restored from each cache, as the
	// summary line counts them.
	local, remote int
	// spans is the time of the in-process actions and of the fan-out (s),
	// by the trace's category: where a restored build spends its time.
	spans map[string]float64
	// jobs and jobTime are the fan-out's jobs and the sum of their spans
	// (s): a restored job's span is its lookup and restore.
	jobs    int
	jobTime float64
	summary string
}

var restoredRE = regexp.MustCompile(`; (\d+) restored from the local cache, (\d+) from the remote cache`)

// cached measures clean builds of the AOT project with no cache, with a
// warm local cache and with a warm remote cache (part 4).
func cached(o options, bin, dir string) error {
	src := filepath.Join(dir, "project")
	if err := aotProject(o, src); err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, name := range []string{"device.ll", "targets.yaml"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		files[name] = data
	}
	n := 0
	// fresh copies the project into a new directory and builds it there
	// with args, by build (traceBuild, straceBuild).
	fresh := func(build func(bin, dir string, args []string) error, args ...string) error {
		n++
		d := filepath.Join(dir, "build"+strconv.Itoa(n))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		defer os.RemoveAll(d)
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(d, name), data, 0o644); err != nil {
				return err
			}
		}
		return build(bin, d, append([]string{"-j", strconv.Itoa(o.jobs)}, args...))
	}
	timed := func(args ...string) (r *cleanBuild, err error) {
		err = fresh(func(bin, dir string, args []string) error {
			r, err = traceBuild(bin, dir, args)
			return err
		}, args...)
		return r, err
	}
	// execs counts the processes a build with args starts, under strace.
	started := map[string]int{}
	execs := func(what string, args ...string) error {
		if _, err := exec.LookPath("strace"); err != nil {
			fmt.Printf("%s: processes not counted: no strace\n", what)
			return nil
		}
		var procs []execd
		err := fresh(func(bin, dir string, args []string) (err error) {
			procs, err = straceBuild(bin, dir, args)
			return err
		}, args...)
		if err != nil {
			return err
		}
		fmt.Printf("%s, once more under strace (untimed): %d processes started besides sycbuild", what, len(procs))
		var life float64
		for i, p := range procs {
			if i < 8 {
				fmt.Printf("\n  %s (%.0f ms)", p.argv, 1000*p.life)
			}
			life += p.life
		}
		if len(procs) > 8 {
			fmt.Printf("\n  … %d more", len(procs)-8)
		}
		fmt.Printf("\n  %.0f ms in all\n", 1000*life)
		started[what] = len(procs)
		return nil
	}

	fmt.Printf("\n== clean builds with the shared caches: %d kernels split per kernel, spir64_gen for %s, -j %d, each in a fresh directory\n",
		o.kernels, o.devices, o.jobs)
	// (a) runs first and, -cold-runs times in all, after (c): the load of
	// a shared machine changes; the fastest counts.
	var cold []*cleanBuild
	coldRun := func() error {
		r, err := timed()
		if err != nil {
			return err
		}
		printBuild("(a) no cache", r)
		cold = append(cold, r)
		return nil
	}
	if err := coldRun(); err != nil {
		return err
	}

	localDir := filepath.Join(dir, "local-cache")
	fillLocal, err := timed("-cache-dir", localDir)
	if err != nil {
		return err
	}
	printBuild("filling the local cache (-cache-dir C)", fillLocal)
	var b []*cleanBuild
	for range o.cacheRuns {
		r, err := timed("-cache-dir", localDir)
		if err != nil {
			return err
		}
		printBuild("(b) warm local cache C", r)
		b = append(b, r)
	}
	if err := execs("(b)", "-cache-dir", localDir); err != nil {
		return err
	}

	var fillRemote *cleanBuild
	var c []*cleanBuild
	server, err := bazelRemotePath(o.bazelRemote)
	if err != nil {
		fmt.Printf("(c) skipped: %v\n", err)
	} else if fillRemote, c, err = remoteBuilds(o, server, dir, timed, execs); err != nil {
		return err
	}
	for len(cold) < o.coldRuns {
		if err := coldRun(); err != nil {
			return err
		}
	}
	a := slices.MinFunc(cold, func(x, y *cleanBuild) int { return int(x.wall - y.wall) })

	fmt.Printf("\n| clean build, fresh directory | wall | commands of the build (trace) | processes started (strace) | restored (local / remote) | wall / (a) |\n|---|---|---|---|---|---|\n")
	row := func(what, part string, r *cleanBuild, extra string) {
		procs := "—"
		if n, ok := started[part]; ok {
			procs = strconv.Itoa(n)
		}
		fmt.Printf("| %s | %s%s | %d | %s | %d / %d | %.2f%% |\n", what, seconds(r.wall), extra, r.commands, procs, r.local, r.remote,
			100*r.wall.Seconds()/a.wall.Seconds())
	}
	what := "(a) no cache"
	if len(cold) > 1 {
		what = fmt.Sprintf("(a) no cache (best of %d)", len(cold))
	}
	row(what, "(a)", a, "")
	row("filling the local cache", "", fillLocal, "")
	if len(b) > 0 {
		m, lo, hi := spread(b)
		row(fmt.Sprintf("**(b) warm local cache** (median of %d)", len(b)), "(b)", m, fmt.Sprintf(" (%s–%s)", seconds(lo), seconds(hi)))
	}
	if fillRemote != nil {
		row("filling bazel-remote (no local cache)", "", fillRemote, "")
	}
	if len(c) > 0 {
		m, lo, hi := spread(c)
		row(fmt.Sprintf("**(c) warm bazel-remote, empty local cache** (median of %d)", len(c)), "(c)", m, fmt.Sprintf(" (%s–%s)", seconds(lo), seconds(hi)))
	}
	fmt.Printf("\n(a) ran %s.\n", toolCounts(a))
	for _, part := range []struct {
		name string
		runs []*cleanBuild
	}{{"(b)", b}, {"(c)", c}} {
		if len(part.runs) == 0 {
			continue
		}
		m, _, _ := spread(part.runs)
		ratio := m.wall.Seconds() / a.wall.Seconds()
		commands := 0
		for _, r := range part.runs {
			commands = max(commands, r.commands)
		}
		fmt.Printf("%s: median %.2f%% of (a), %.0f× faster (goal < 5%%: %s); at most %d commands of the build in a run (goal 0: %s)",
			part.name, 100*ratio, 1/ratio, verdict(ratio < 0.05), commands, verdict(commands == 0))
		if n, ok := started[part.name]; ok {
			fmt.Printf("; %d processes started in all (strace)", n)
		}
		fmt.Println()
		fmt.Printf("%s, median run: %s\n", part.name, where(m))
	}
	return nil
}

// remoteBuilds starts bazel-remote with a store in a new directory, fills
// it with a build that has no local cache, restarts it on the same store,
// and runs the (c) builds, each with a new, empty local cache.
func remoteBuilds(o options, server, dir string, timed func(...string) (*cleanBuild, error), execs func(string, ...string) error) (*cleanBuild, []*cleanBuild, error) {
	store := filepath.Join(dir, "bazel-remote")
	s, err := startBazelRemote(server, store)
	if err != nil {
		return nil, nil, err
	}
	fill, err := timed("-remote-cache", s.url)
	s.stop()
	if err != nil {
		return nil, nil, err
	}
	printBuild("filling bazel-remote (-remote-cache, no local cache)", fill)
	if s, err = startBazelRemote(server, store); err != nil {
		return nil, nil, err
	}
	defer s.stop()
	fmt.Printf("bazel-remote restarted on its store (%s)\n", s.url)
	var runs []*cleanBuild
	for i := range o.cacheRuns {
		r, err := timed("-cache-dir", filepath.Join(dir, "empty-cache"+strconv.Itoa(i)), "-remote-cache", s.url)
		if err != nil {
			return nil, nil, err
		}
		printBuild("(c) warm bazel-remote, empty local cache", r)
		runs = append(runs, r)
	}
	if err := execs("(c)", "-cache-dir", filepath.Join(dir, "empty-cache-strace"), "-remote-cache", s.url); err != nil {
		return nil, nil, err
	}
	return fill, runs, nil
}

// traceBuild runs a build with -trace in dir and reads what it did.
func traceBuild(bin, dir string, args []string) (*cleanBuild, error) {
	wall, log, err := sycbuild(bin, dir, append(args, "-trace", "trace.json")...)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "trace.json"))
	if err != nil {
		return nil, err
	}
	var tr struct {
		TraceEvents []struct {
			Cat  string            `json:"cat"`
			Ph   string            `json:"ph"`
			Dur  float64           `json:"dur"`
			Args map[string]string `json:"args"`
		} `json:"traceEvents"`
		OtherData map[string]string `json:"otherData"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "trace.json"), err)
	}
	r := &cleanBuild{wall: wall, tools: map[string]int{}, spans: map[string]float64{}}
	r.build, _ = strconv.ParseFloat(tr.OtherData["wall_seconds"], 64)
	for _, e := range tr.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		if e.Cat == "job" { // its span holds its commands' rusage too
			r.jobs++
			r.jobTime += e.Dur / 1e6
			continue
		}
		if _, child := e.Args["user_seconds"]; child {
			r.commands++
			r.tools[e.Cat]++
		} else {
			r.spans[e.Cat] += e.Dur / 1e6
		}
	}
	lines := strings.Split(strings.TrimSpace(log), "\n")
	r.summary = lines[len(lines)-1]
	if m := restoredRE.FindStringSubmatch(log); m != nil {
		r.local, _ = strconv.Atoi(m[1])
		r.remote, _ = strconv.Atoi(m[2])
	}
	return r, nil
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "NOT met"
}

func printBuild(what string, r *cleanBuild) {
	fmt.Printf("%s: %s wall, %d external commands, %d restored from the local cache, %d from the remote cache\n",
		what, seconds(r.wall), r.commands, r.local, r.remote)
}

// spread returns the median run (the upper one of an even count) and the
// fastest and slowest wall times.
func spread(runs []*cleanBuild) (median *cleanBuild, lo, hi time.Duration) {
	s := slices.Clone(runs)
	slices.SortFunc(s, func(x, y *cleanBuild) int { return int(x.wall - y.wall) })
	return s[len(s)/2], s[0].wall, s[len(s)-1].wall
}

// toolCounts lists the external commands a build ran, by tool.
func toolCounts(r *cleanBuild) string {
	if r.commands == 0 {
		return "no external command"
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(r.tools)) {
		parts = append(parts, fmt.Sprintf("%d %s", r.tools[t], t))
	}
	return strings.Join(parts, ", ")
}

// where says where a build's time went: process start and exit around the
// build, and within it the spans of the trace.
func where(r *cleanBuild) string {
	var b strings.Builder
	fmt.Fprintf(&b, "process %s, of which the build %s", seconds(r.wall), seconds(time.Duration(r.build*1e9)))
	for _, cat := range slices.Sorted(maps.Keys(r.spans)) {
		fmt.Fprintf(&b, "; %s %.0f ms", cat, 1000*r.spans[cat])
		if cat == "fan-out" && r.jobs > 0 {
			fmt.Fprintf(&b, " (%d jobs of %.1f ms on average)", r.jobs, 1000*r.jobTime/float64(r.jobs))
		}
	}
	return b.String()
}

func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.3f s", d.Seconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// execd is a process a build started: its command line and how long it
// lived (s).
type execd struct {
	argv string
	life float64
}

var execveRE = regexp.MustCompile(`^execve\("[^"]*", \[(.*?)\]`)

// straceBuild runs a build under strace in dir and returns the processes
// it started (every successful execve but the build's own), to count
// what the trace does not show: commands run outside the build's
// actions. The build's time is not measured (strace slows it).
func straceBuild(bin, dir string, args []string) ([]execd, error) {
	log := filepath.Join(dir, "strace.txt")
	cmd := exec.Command("strace", append([]string{"-f", "-q", "-ttt", "-e", "trace=execve", "-e", "signal=none", "-o", log, bin}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("strace sycbuild %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		return nil, err
	}
	type proc struct {
		argv       string
		start, end float64
		ok         bool
	}
	var procs []*proc
	live := map[string]*proc{} // by pid
	for _, line := range strings.Split(string(data), "\n") {
		g := strings.Fields(line) // PID TIMESTAMP what
		if len(g) < 3 {
			continue
		}
		ts, err := strconv.ParseFloat(g[1], 64)
		if err != nil {
			continue
		}
		pid, rest := g[0], strings.TrimSpace(line[strings.Index(line, g[1])+len(g[1]):])
		switch {
		case strings.HasPrefix(rest, "execve("):
			m := execveRE.FindStringSubmatch(rest)
			if m == nil {
				continue
			}
			p := &proc{argv: strings.ReplaceAll(m[1], `", "`, " "), start: ts, ok: strings.HasSuffix(rest, "= 0")}
			p.argv = strings.Trim(p.argv, `"`)
			live[pid] = p
			procs = append(procs, p)
		case strings.HasPrefix(rest, "<... execve resumed>"):
			if p := live[pid]; p != nil && strings.HasSuffix(rest, "= 0") {
				p.ok = true
			}
		case strings.HasPrefix(rest, "+++ "):
			if p := live[pid]; p != nil && p.end == 0 {
				p.end = ts
			}
		}
	}
	var out []execd
	for i, p := range procs {
		if i == 0 || !p.ok {
			continue // sycbuild itself, or a failed execve
		}
		out = append(out, execd{argv: p.argv, life: max(p.end-p.start, 0)})
	}
	return out, nil
}
