// Command dagbench measures sycbuild's build executor on the synthetic SYCL
// module of internal/irgen, in one run on one machine:
//
//		go run ./bench/dagbench                      # the numbers of BENCHMARKS.md
//		go run ./bench/dagbench -kernels 40 -noop 200 -runs 3   # a quick look
//		go run ./bench/dagbench -only cache          # part 4 alone
//
//	 1. AOT fan-out: the module split per kernel (-kernels modules) for
//	    spir64_gen through llvm-as-15, llvm-spirv-15, spirv-val and ocloc, on
//	    -j job slots. After a warm-up build, the per-module images are deleted
//	    and rebuilt with -trace: from the trace, the fan-out's wall time, the
//	    sum of its jobs' times (the time the job slots ran commands), and
//	    the efficiency Σ(job times) / (wall × j) (goal ≥ 0.9); from sycbuild's own rusage, the CPU time it spent while
//	    its children worked (goal < 2% of the wall time). Beside it, after each
//	    timed build, bench/spawnfloor runs the same commands (as the warm-up
//	    build printed them with -v) on -j workers and does nothing else: the
//	    floor of a Go executor's own CPU on them, and sycbuild's ratio to it.
//	 2. The same work as the DPC++ driver does it: one "sycbuild llvm-foreach"
//	    per tool (llvm-as and llvm-spirv in one, joined by a pipe), without -j
//	    (sequential, the reference's default), taken from sycbuild's own -n
//	    output, timed with the same outputs deleted.
//	 3. No-op rebuild: a build of -noop images (a -noop-kind target, split per
//	    kernel) is run again -runs times with nothing to do (goal < 100 ms).
//	 4. Clean builds with the shared caches: the AOT project of part 1, built
//	    in a fresh directory each time (a) with no cache, (b) with a local
//	    cache (-cache-dir) that a build in another directory filled, (c) with
//	    an empty local cache and a bazel-remote server (started on a
//	    loopback port, restarted on its store) that a build in another
//	    directory filled; (a) -cold-runs times, first and last, the best
//	    counting; (b) and (c) -cache-runs times. For each, the wall
//	    time and the external commands run, counted in the build's -trace
//	    (goal for (b) and (c): none, in under 5% of (a)'s time); one more
//	    untimed build of (b) and of (c) under strace counts every process
//	    started, the trace's commands and any others.
//
// Wall times depend on the machine and its load; the ratios are taken
// within one run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-shellwords"

	"github.com/sycbuild/sycbuild/internal/irgen"
)

type options struct {
	kernels, body, jobs, noop, runs, aotRuns, cacheRuns, coldRuns int
	devices, noopKind, dir, binary, tools, spawnFloor             string
	only, bazelRemote                                             string
}

func main() {
	var o options
	flag.IntVar(&o.kernels, "kernels", 240, "kernels of the AOT module (one split module each)")
	flag.IntVar(&o.body, "body", 40, "arithmetic instructions per function of the AOT module")
	flag.IntVar(&o.jobs, "j", 2, "job slots of the builds")
	flag.StringVar(&o.devices, "devices", "pvc", "ocloc devices, comma-separated")
	flag.IntVar(&o.noop, "noop", 1000, "images of the no-op rebuild")
	flag.StringVar(&o.noopKind, "noop-kind", "spir64", "target kind of the no-op rebuild (llvm_ir needs no external tool)")
	flag.IntVar(&o.aotRuns, "aot-runs", 2, "timed fan-out rebuilds, alternating with the sequential pattern (the best of each is compared)")
	flag.IntVar(&o.runs, "runs", 10, "timed no-op rebuilds (the median and best are printed)")
	flag.StringVar(&o.dir, "dir", "", "work directory (default: a temporary one, removed)")
	flag.StringVar(&o.binary, "sycbuild", "", "sycbuild binary (default: built from this tree)")
	flag.StringVar(&o.spawnFloor, "spawnfloor", "", "bench/spawnfloor binary (default: built from this tree)")
	flag.StringVar(&o.only, "only", "", "run only one part: aot, noop or cache")
	flag.IntVar(&o.coldRuns, "cold-runs", 2, "timed clean builds with no cache, the first before the cached ones, the others after (the best counts)")
	flag.IntVar(&o.cacheRuns, "cache-runs", 5, "timed clean builds from each warm cache (the median and best are printed)")
	flag.StringVar(&o.bazelRemote, "bazel-remote", ".cache/bin/bazel-remote", "bazel-remote binary of the remote cache builds (relative: to the repository root)")
	flag.StringVar(&o.tools, "tools", "", "tools: entries of the configs, role=path,… (e.g. stand-ins built from standin/standin.c)")
	flag.Parse()
	switch o.only {
	case "", "aot", "noop", "cache":
	default:
		fmt.Fprintf(os.Stderr, "dagbench: -only %q: want aot, noop or cache\n", o.only)
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "dagbench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "dagbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	part := func(name string) bool { return o.only == "" || o.only == name }
	bin := o.binary
	if bin == "" {
		bin = filepath.Join(dir, "sycbuild")
		if out, err := goBuild(bin, "./cmd/sycbuild"); err != nil {
			return fmt.Errorf("building sycbuild: %v\n%s", err, out)
		}
	}
	bin, _ = filepath.Abs(bin)
	if o.spawnFloor == "" && part("aot") {
		o.spawnFloor = filepath.Join(dir, "spawnfloor")
		if out, err := goBuild(o.spawnFloor, "./bench/spawnfloor"); err != nil {
			return fmt.Errorf("building spawnfloor: %v\n%s", err, out)
		}
	}
	fmt.Printf("dagbench: %d CPUs, GOMAXPROCS %d, -j %d, load average %s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), o.jobs, loadavg())
	defer func() { fmt.Printf("\ndagbench: load average at the end %s\n", loadavg()) }()
	if part("aot") {
		if err := aot(o, bin, filepath.Join(dir, "aot")); err != nil {
			return err
		}
	}
	if part("noop") {
		if err := noop(o, bin, filepath.Join(dir, "noop")); err != nil {
			return err
		}
	}
	if part("cache") {
		return cached(o, bin, filepath.Join(dir, "cache"))
	}
	return nil
}

// project writes a generated module and a config into dir.
func project(dir string, c irgen.Config, config string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text, err := irgen.String(c)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "device.ll"), []byte(text), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "targets.yaml"), []byte(config), 0o644)
}

// goBuild builds a program of this tree as the Makefile builds sycbuild:
// static, with no cgo (with cgo the runtime starts its threads through
// libc).
func goBuild(out, pkg string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd.CombinedOutput()
}

// sycbuild runs the binary in dir and returns its wall time.
func sycbuild(bin, dir string, args ...string) (time.Duration, string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if err != nil {
		return d, out.String(), fmt.Errorf("sycbuild %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return d, out.String(), nil
}

func removeImages(dir string) error {
	bins, err := filepath.Glob(filepath.Join(dir, "out", "spir64_gen", "module_*.bin"))
	if err != nil {
		return err
	}
	for _, b := range bins {
		if err := os.Remove(b); err != nil {
			return err
		}
	}
	if len(bins) == 0 {
		return fmt.Errorf("no images to delete in %s", dir)
	}
	return nil
}

type traceFile struct {
	TraceEvents []struct {
		Cat string  `json:"cat"`
		Ph  string  `json:"ph"`
		Ts  float64 `json:"ts"`
		Dur float64 `json:"dur"`
		Tid int     `json:"tid"`
	} `json:"traceEvents"`
	OtherData map[string]string `json:"otherData"`
}

// aotProject writes the AOT fan-out's project into dir: the module of
// -kernels kernels, split per kernel for spir64_gen.
func aotProject(o options, dir string) error {
	c := irgen.Config{Kernels: o.kernels, Helpers: max(o.kernels/4, 1), Body: o.body, CallsPerKernel: 2,
		Sources: 8, SpecConsts: min(8, o.kernels), Unnamed: 4, Typed: true, Seed: 1}
	devices := strings.Join(strings.Split(o.devices, ","), ", ")
	config := fmt.Sprintf("inputs: [device.ll]\nsplit: per_kernel\n%stargets:\n  - kind: spir64_gen\n    devices: [%s]\n", toolsYAML(o.tools), devices)
	return project(dir, c, config)
}

func aot(o options, bin, dir string) error {
	if err := aotProject(o, dir); err != nil {
		return err
	}
	j := strconv.Itoa(o.jobs)
	fmt.Printf("\n== AOT fan-out: %d kernels split per kernel, spir64_gen for %s, -j %s\n", o.kernels, o.devices, j)
	d, log, err := sycbuild(bin, dir, "-v", "-j", j)
	if err != nil {
		return err
	}
	fmt.Printf("warm-up build (post-link and everything): %.2fs\n", d.Seconds())
	floorJobs, err := moduleJobs(log, bin)
	if err != nil {
		return err
	}
	if len(floorJobs) != o.kernels {
		return fmt.Errorf("the warm-up build printed the commands of %d module jobs, want %d", len(floorJobs), o.kernels)
	}
	jobsFile := filepath.Join(dir, "floor-jobs.json")
	if data, err := json.Marshal(floorJobs); err != nil {
		return err
	} else if err := os.WriteFile(jobsFile, data, 0o644); err != nil {
		return err
	}
	var best, floorBest *fanout
	var seqBest time.Duration
	for r := range o.aotRuns {
		f, err := timedFanout(o, bin, dir)
		if err != nil {
			return err
		}
		if best == nil || f.wall < best.wall {
			best = f
		}
		seq, err := sequentialForeach(bin, dir)
		if err != nil {
			return err
		}
		if r == 0 || seq < seqBest {
			seqBest = seq
		}
		floor, err := spawnFloor(o, dir, jobsFile)
		if err != nil {
			return err
		}
		if r == 0 || floor.own() < floorBest.own() {
			floorBest = floor
		}
		fmt.Printf("run %d: sycbuild fan-out %.2fs (efficiency %.3f), own CPU %.2f%% (%.2f%% while the fan-out ran); sequential llvm-foreach %.2fs; spawn floor own CPU %.2f%%\n",
			r+1, f.fanWall, f.jobs/(f.fanWall*float64(o.jobs)), 100*f.own(), 100*f.ownFanout(), seq.Seconds(), 100*floor.own())
	}
	if best == nil {
		return nil // -aot-runs 0: the warm-up build only
	}
	f := best
	n := float64(o.kernels)
	fmt.Printf("best sycbuild run: rebuild of the %d images %.2fs wall (process)\n", o.kernels, f.wall.Seconds())
	fmt.Printf("fan-out: %.2fs wall; Σ job times %.2fs (per job %.0f ms: llvm-as %.0f, llvm-spirv %.0f, spirv-val %.0f, ocloc %.0f)\n",
		f.fanWall, f.jobs, 1000*f.jobs/n, 1000*f.steps["llvm-as"]/n, 1000*f.steps["llvm-spirv"]/n,
		1000*f.steps["spirv-val"]/n, 1000*f.steps["ocloc"]/n)
	fmt.Printf("efficiency Σ(job times) / (wall × %d): %.3f (goal ≥ 0.9)\n", o.jobs, f.jobs/(f.fanWall*float64(o.jobs)))
	fmt.Printf("sycbuild's own CPU while it ran: %.3fs user + %.3fs system = %.2f%% of the wall time (goal < 2%%)\n",
		f.user, f.sys, 100*f.own())
	fmt.Printf("sycbuild's own CPU while the fan-out ran: %.3fs user + %.3fs system = %.2f%% of its %.2fs (without the start, the split and the wrapper)\n",
		f.fanUser, f.fanSys, 100*f.ownFanout(), f.fanOwnWall)
	fmt.Printf("spawn floor (bench/spawnfloor, the same %d processes on -j %d, best run): %.3fs user + %.3fs system = %.2f%% of its wall time; sycbuild / floor: %.2fx\n",
		floorBest.procs, o.jobs, floorBest.user, floorBest.sys, 100*floorBest.own(), f.own()/floorBest.own())
	fmt.Printf("same work as 3 sequential \"sycbuild llvm-foreach\" (no -j), best: %.2fs wall; sycbuild's fan-out: %.2fx that speed\n",
		seqBest.Seconds(), seqBest.Seconds()/f.fanWall)
	return nil
}

// fanout is one timed rebuild of every module's chain.
type fanout struct {
	wall          time.Duration // the sycbuild process
	fanWall, jobs float64       // the fan-out's span, Σ job times (s): see busyTime
	steps         map[string]float64
	user, sys     float64 // sycbuild's own CPU (s)
	// sycbuild's own CPU while the fan-out ran (s), and that time: the
	// process's without its start, the split and the wrapper
	fanUser, fanSys, fanOwnWall float64
	procs                       int // processes started (spawnfloor)
}

// own is the process's own CPU as a share of its wall time.
func (f *fanout) own() float64 { return (f.user + f.sys) / f.wall.Seconds() }

// ownFanout is the process's own CPU while the fan-out ran, as a share of
// that time (0 when the trace does not say).
func (f *fanout) ownFanout() float64 {
	if f.fanOwnWall == 0 {
		return 0
	}
	return (f.fanUser + f.fanSys) / f.fanOwnWall
}

// moduleRE finds the module a command works on.
var moduleRE = regexp.MustCompile(`module_[0-9]+`)

// moduleJobs returns, from what a -v build printed, the module jobs'
// commands (see bench/spawnfloor): each command line that names a module
// (module_<i>), in the order printed, grouped by module; a program whose
// output is "-o -" pipes into the next. sycbuild's own commands are not
// module jobs.
func moduleJobs(log, bin string) ([][][][]string, error) {
	var jobs [][][][]string
	index := map[string]int{}
	piping := map[string]bool{}
	for _, line := range strings.Split(log, "\n") {
		key := moduleRE.FindString(line)
		if key == "" || strings.HasPrefix(line, "[") || strings.HasPrefix(line, "sycbuild:") {
			continue
		}
		argv, err := shellwords.Parse(line)
		if err != nil {
			return nil, fmt.Errorf("a command line of the -v build: %v: %s", err, line)
		}
		if len(argv) == 0 || argv[0] == bin {
			continue
		}
		k, ok := index[key]
		if !ok {
			k = len(jobs)
			index[key] = k
			jobs = append(jobs, nil)
		}
		if piping[key] {
			last := len(jobs[k]) - 1
			jobs[k][last] = append(jobs[k][last], argv)
		} else {
			jobs[k] = append(jobs[k], [][]string{argv})
		}
		n := len(argv)
		piping[key] = n >= 2 && argv[n-2] == "-o" && argv[n-1] == "-"
	}
	return jobs, nil
}

// spawnFloor runs bench/spawnfloor on the module jobs in dir and reads
// its own CPU.
func spawnFloor(o options, dir, jobsFile string) (*fanout, error) {
	cmd := exec.Command(o.spawnFloor, "-jobs", jobsFile, "-dir", dir, "-j", strconv.Itoa(o.jobs))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("spawnfloor: %v\n%s", err, out)
	}
	f := &fanout{}
	var jobs, j int
	var wall float64
	if _, err := fmt.Sscanf(string(out), "spawnfloor: %d processes, %d jobs, -j %d: wall %f s, own CPU %f s user + %f s system",
		&f.procs, &jobs, &j, &wall, &f.user, &f.sys); err != nil {
		return nil, fmt.Errorf("spawnfloor printed %q: %v", out, err)
	}
	f.wall = time.Duration(wall * float64(time.Second))
	return f, nil
}

// timedFanout deletes the images and rebuilds them with a trace.
func timedFanout(o options, bin, dir string) (*fanout, error) {
	if err := removeImages(dir); err != nil {
		return nil, err
	}
	wall, log, err := sycbuild(bin, dir, "-j", strconv.Itoa(o.jobs), "-trace", "trace.json")
	if err != nil {
		return nil, err
	}
	if !strings.Contains(log, fmt.Sprintf("%d module jobs run", o.kernels)) {
		return nil, fmt.Errorf("the timed build did not rerun every module:\n%s", log)
	}
	data, err := os.ReadFile(filepath.Join(dir, "trace.json"))
	if err != nil {
		return nil, err
	}
	var tr traceFile
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, err
	}
	f := &fanout{wall: wall, steps: map[string]float64{}}
	busy := map[int][][2]float64{} // per job slot, its commands' spans
	for _, e := range tr.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		switch e.Cat {
		case "fan-out":
			f.fanWall += e.Dur / 1e6
		case "llvm-as", "llvm-spirv", "spirv-val", "ocloc":
			f.steps[e.Cat] += e.Dur / 1e6
			busy[e.Tid] = append(busy[e.Tid], [2]float64{e.Ts, e.Ts + e.Dur})
		}
	}
	f.jobs = busyTime(busy)
	f.user, _ = strconv.ParseFloat(tr.OtherData["sycbuild_user_seconds"], 64)
	f.sys, _ = strconv.ParseFloat(tr.OtherData["sycbuild_system_seconds"], 64)
	f.fanUser, _ = strconv.ParseFloat(tr.OtherData["sycbuild_fanout_user_seconds"], 64)
	f.fanSys, _ = strconv.ParseFloat(tr.OtherData["sycbuild_fanout_system_seconds"], 64)
	f.fanOwnWall, _ = strconv.ParseFloat(tr.OtherData["fanout_wall_seconds"], 64)
	return f, nil
}

// sequentialForeach deletes the images and rebuilds them the DPC++
// driver's way: the llvm-foreach lines of sycbuild's own dry run, each
// running its tool over every module, one at a time (llvm-as piped into
// llvm-spirv in one line, as sycbuild runs them).
func sequentialForeach(bin, dir string) (time.Duration, error) {
	if err := removeImages(dir); err != nil {
		return 0, err
	}
	cmd := exec.Command(bin, "-n")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("sycbuild -n: %v", err)
	}
	var foreach []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, " llvm-foreach ") {
			foreach = append(foreach, l)
		}
	}
	if len(foreach) != 3 {
		return 0, fmt.Errorf("expected 3 llvm-foreach lines in the dry run, got:\n%s", out)
	}
	sh := exec.Command("bash", "-e", "-c", strings.Join(foreach, "\n"))
	sh.Dir = dir
	t0 := time.Now()
	if out, err := sh.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("the llvm-foreach commands: %v\n%s", err, out)
	}
	return time.Since(t0), nil
}

func noop(o options, bin, dir string) error {
	c := irgen.Config{Kernels: o.noop, Helpers: max(o.noop/10, 1), Body: 2, CallsPerKernel: 1,
		Sources: 10, SpecConsts: min(8, o.noop), Unnamed: 4, Typed: true, Seed: 1}
	config := fmt.Sprintf("inputs: [device.ll]\nsplit: per_kernel\n%stargets:\n  - kind: %s\n", toolsYAML(o.tools), o.noopKind)
	if err := project(dir, c, config); err != nil {
		return err
	}
	fmt.Printf("\n== no-op rebuild: %d images (%s, split per kernel)\n", o.noop, o.noopKind)
	d, _, err := sycbuild(bin, dir, "-j", strconv.Itoa(o.jobs))
	if err != nil {
		return err
	}
	fmt.Printf("first build: %.2fs\n", d.Seconds())
	var times []float64
	for range o.runs {
		d, log, err := sycbuild(bin, dir)
		if err != nil {
			return err
		}
		if !strings.Contains(log, ": 0 actions run") {
			return fmt.Errorf("the rebuild was not a no-op:\n%s", log)
		}
		times = append(times, d.Seconds()*1000)
	}
	sort.Float64s(times)
	fmt.Printf("no-op rebuild (process start to exit, %d runs): median %.1f ms, best %.1f ms (goal < 100 ms)\n",
		len(times), times[len(times)/2], times[0])
	return nil
}

// loadavg is the 1-minute load average (the machine may be shared; the
// ratios are fair only when it stays below the number of CPUs).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b))[0]
}

// toolsYAML turns "role=path,…" into a config's tools: section.
func toolsYAML(list string) string {
	if list == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("tools:\n")
	for _, kv := range strings.Split(list, ",") {
		role, path, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "  %s: %q\n", role, path)
	}
	return b.String()
}

// busyTime is the time the job slots ran commands, in seconds: per slot,
// the length of the union of its commands' spans (µs). A job's span is not
// its time where its last command ran in a batch with others' (it holds
// theirs), and the commands of a pipe overlap.
func busyTime(slots map[int][][2]float64) float64 {
	total := 0.0
	for _, spans := range slots {
		sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
		end := -1.0
		for _, s := range spans {
			from := max(s[0], end)
			if s[1] > from {
				total += s[1] - from
				end = s[1]
			}
		}
	}
	return total / 1e6
}
