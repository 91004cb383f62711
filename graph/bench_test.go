package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
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
