package graph

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/jobs/jobstest"
)

// BenchmarkFanoutOverhead measures what sycbuild itself spends per fan-out
// job: the CPU time of this process (not of the children) while 2 job
// slots run chains of four trivial commands. The tools sycbuild drives
// take 0.1–1 s per module; the goal is that waiting for them costs under
// 2% of that.
func BenchmarkFanoutOverhead(b *testing.B) {
	const items = 100
	dir := b.TempDir()
	var list strings.Builder
	for i := range items {
		name := fmt.Sprintf("src/m%d.txt", i)
		os.MkdirAll(filepath.Join(dir, "src"), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
		list.WriteString(name + "\n")
	}
	os.WriteFile(filepath.Join(dir, "mods.list"), []byte(list.String()), 0o644)
	g := New()
	tool := &Tool{Name: "cp", Path: "cp", Version: "1"}
	f := &Fanout{List: g.File("mods.list", List), Dir: "out"}
	prev := StepInput{"m.src", -1}
	for k, ext := range []string{"a", "b", "c", "d"} {
		ph := "m." + ext
		f.Steps = append(f.Steps, &Step{Tool: tool, Args: []string{prev.Placeholder, ph}, In: []StepInput{prev},
			Out: &StepOutput{ph, ext, g.File("out/"+ext+".list", List)}})
		prev = StepInput{ph, k}
	}
	a := &Action{Desc: "cp", Fanout: f, In: []*Node{f.List}}
	for _, s := range f.Steps {
		a.Out = append(a.Out, s.Out.List)
	}
	if err := g.Add(a); err != nil {
		b.Fatal(err)
	}
	var cpu, wall time.Duration
	b.ResetTimer()
	for range b.N {
		os.RemoveAll(filepath.Join(dir, "out"))
		os.RemoveAll(filepath.Join(dir, ".state"))
		var r0, r1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
		t0 := time.Now()
		res, err := g.Build(context.Background(), Options{Pool: jobs.NewPool(2), StateDir: filepath.Join(dir, ".state"), Dir: dir})
		wall += time.Since(t0)
		syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
		if err != nil || res.JobsRan != items {
			b.Fatalf("%v %+v", err, res)
		}
		cpu += time.Duration(r1.Utime.Nano()+r1.Stime.Nano()-r0.Utime.Nano()-r0.Stime.Nano()) * time.Nanosecond
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*items*4), "self-cpu-µs/command")
	b.ReportMetric(float64(wall.Microseconds())/float64(b.N*items*4), "wall-µs/command")
}

// BenchmarkNoOpBuild is a build with nothing to do: a fan-out of 1000
// items whose chains wrote two files each, and a consumer of its list,
// all recorded in the log; the build loads the log, checks every file's
// size and time, and runs nothing.
func BenchmarkNoOpBuild(b *testing.B) {
	const items = 1000
	dir := b.TempDir()
	var list strings.Builder
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	for i := range items {
		name := fmt.Sprintf("src/m%d.txt", i)
		os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644)
		list.WriteString(name + "\n")
	}
	os.WriteFile(filepath.Join(dir, "mods.list"), []byte(list.String()), 0o644)
	g := New()
	tool := &Tool{Name: "cp", Path: "cp", Version: "1"}
	f := &Fanout{List: g.File("mods.list", List), Dir: "out"}
	prev := StepInput{"m.src", -1}
	for k, ext := range []string{"a", "b"} {
		ph := "m." + ext
		f.Steps = append(f.Steps, &Step{Tool: tool, Args: []string{prev.Placeholder, ph}, In: []StepInput{prev},
			Out: &StepOutput{ph, ext, g.File("out/"+ext+".list", List)}})
		prev = StepInput{ph, k}
	}
	a := &Action{Desc: "cp", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List, f.Steps[1].Out.List}}
	g.Add(a)
	g.Add(&Action{Desc: "count", Tool: shTool, Argv: []string{"sh", "-c", `wc -l < "$1" > "$2"`, "sh", "out/b.list", "count.txt"},
		In: []*Node{g.File("out/b.list", List)}, Out: []*Node{g.File("count.txt", Plain)}})
	opt := Options{Pool: jobs.NewPool(2), StateDir: filepath.Join(dir, ".state"), Dir: dir}
	if res, err := g.Build(context.Background(), opt); err != nil || res.JobsRan != items {
		b.Fatalf("%v %+v", err, res)
	}
	b.ResetTimer()
	for range b.N {
		res, err := g.Build(context.Background(), opt)
		if err != nil || res.Ran != 0 || res.JobsCached != items {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkLongestFirst builds a fan-out of 48 stand-in jobs of mixed
// lengths (a few long, most short, in a shuffled list: what a split of
// kernels of uneven size gives) on 4 job slots, through a fake runner
// whose commands sleep for their length: once with nothing recorded (the
// jobs start in list order, as every build did before ready work was
// ranked), once after a build that recorded their times (longest first).
// It reports makespan / lower bound, where the bound is
// max(longest job, total work / slots): 1.0 is a perfect schedule.
func BenchmarkLongestFirst(b *testing.B) {
	const items, slots = 48, 4
	rng := rand.New(rand.NewPCG(41, 4))
	lengths := map[string]time.Duration{}
	var total, longest time.Duration
	var names []string
	for i := range items {
		ms := 20 + rng.IntN(80) // most: 20–100 ms
		if i%12 == 0 {
			ms = 600 + rng.IntN(400) // 4 of them: 0.6–1 s
		}
		name := fmt.Sprintf("src/m%d.txt", i)
		names = append(names, name)
		lengths[name] = time.Duration(ms) * time.Millisecond
		total += lengths[name]
		longest = max(longest, lengths[name])
	}
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	bound := max(longest, total/slots)
	standIn := func(sleep bool) func(context.Context, *jobstest.Call) error {
		return func(ctx context.Context, c *jobstest.Call) error {
			c.Wall = lengths[c.Argv[1]]
			if sleep {
				time.Sleep(c.Wall)
			}
			return jobstest.Files(ctx, c)
		}
	}
	for _, recorded := range []bool{false, true} {
		name := "list-order"
		if recorded {
			name = "longest-first"
		}
		b.Run(name, func(b *testing.B) {
			var ratio float64
			for n := 0; n < b.N; n++ {
				b.StopTimer()
				dir := b.TempDir()
				for _, it := range names {
					os.MkdirAll(filepath.Join(dir, "src"), 0o755)
					os.WriteFile(filepath.Join(dir, it), []byte(it), 0o644)
				}
				os.WriteFile(filepath.Join(dir, "mods.list"), []byte(strings.Join(names, "\n")+"\n"), 0o644)
				g := New()
				f := &Fanout{List: g.File("mods.list", List), Dir: "out", Steps: []*Step{{Tool: catTool, Args: []string{"m.src", "m.out"},
					In: []StepInput{{"m.src", -1}}, Out: &StepOutput{"m.out", "out", g.File("out/out.list", List)}}}}
				if err := g.Add(&Action{Desc: "stand-ins", Fanout: f, In: []*Node{f.List}, Out: []*Node{f.Steps[0].Out.List}}); err != nil {
					b.Fatal(err)
				}
				r := &jobstest.Runner{}
				opt := Options{Pool: jobs.NewPool(slots), StateDir: filepath.Join(dir, ".state"), Dir: dir, Runner: r}
				if recorded {
					// A build that records the times without taking them, then
					// every item changes.
					r.Do = standIn(false)
					if _, err := g.Build(context.Background(), opt); err != nil {
						b.Fatal(err)
					}
					for _, it := range names {
						os.WriteFile(filepath.Join(dir, it), []byte(it+" changed"), 0o644)
					}
				}
				r.Do = standIn(true)
				b.StartTimer()
				res, err := g.Build(context.Background(), opt)
				if err != nil || res.JobsRan != items {
					b.Fatalf("%v, %d jobs ran", err, res.JobsRan)
				}
				ratio += float64(res.Elapsed) / float64(bound)
			}
			// The same order on ideal slots (no cost but the jobs'), for
			// what the machine's own overhead adds to the measured ratio.
			order := slices.Clone(names)
			if recorded {
				slices.SortStableFunc(order, func(x, y string) int { return cmp.Compare(lengths[y], lengths[x]) })
			}
			b.ReportMetric(ratio/float64(b.N), "makespan/bound")
			b.ReportMetric(float64(greedy(order, lengths, slots))/float64(bound), "ideal-makespan/bound")
			b.ReportMetric(float64(bound.Milliseconds()), "bound-ms")
		})
	}
}

// greedy is the makespan of jobs started in order, each on the first free
// of slots.
func greedy(order []string, lengths map[string]time.Duration, slots int) time.Duration {
	free := make([]time.Duration, slots)
	for _, it := range order {
		i := slices.Index(free, slices.Min(free))
		free[i] += lengths[it]
	}
	return slices.Max(free)
}
