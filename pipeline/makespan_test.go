//go:build linux

package pipeline_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/slurmtest"
)

// makespanMix gives each of n modules' ocloc a time of its own, from a
// fixed seed: nine in ten modules of 0.3–0.9 s and one in ten of 2–6 s (a
// per-kernel split where a few kernels are big), scaled by slots/16 so that
// the work per slot is the same on any machine (about 14 s). It writes the
// stand-in's table (STANDIN_MS_TABLE) and returns the times in ms.
func makespanMix(t testing.TB, path string, n, slots int) []float64 {
	r := rand.New(rand.NewPCG(42, 240))
	scale := float64(slots) / 16
	var ms []float64
	var table strings.Builder
	for i := range n {
		d := 300 + 600*r.Float64()
		if r.IntN(10) == 0 {
			d = 2000 + 4000*r.Float64()
		}
		d = float64(int(d * scale))
		ms = append(ms, d)
		fmt.Fprintf(&table, "ocloc module_%d %.0f\n", i, d)
	}
	if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return ms
}

// fanoutTimes reads a build's trace: the fan-out's wall time and each
// module job's, in seconds.
func fanoutTimes(t testing.TB, trace string) (wall float64, jobs []float64) {
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Cat string  `json:"cat"`
			Ph  string  `json:"ph"`
			Dur float64 `json:"dur"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	for _, e := range tr.TraceEvents {
		switch {
		case e.Ph != "X":
		case e.Cat == "fan-out":
			wall += e.Dur / 1e6
		case e.Cat == "job":
			jobs = append(jobs, e.Dur/1e6)
		}
	}
	return wall, jobs
}

// lowerBound is max(longest job, total work / slots).
func lowerBound(jobs []float64, slots int) float64 {
	return max(slices.Max(jobs), sum(jobs)/float64(slots))
}

// BenchmarkSlurmMakespan: the 240-module stand-in build (per-kernel split,
// spir64_gen for pvc), each module's ocloc taking its own time
// (makespanMix), at -j = the node's CPUs, here and through a one-machine
// Slurm cluster. Each is built twice: from clean, when nothing is recorded
// and the jobs start in list order, and again after its images are deleted,
// when the build log's times start the longest first. Reported per build:
// the fan-out's makespan over the lower bound max(longest job, total work /
// slots) of the jobs' times in the first build here (through Slurm a job's
// time in the trace also holds its wait for the node's resources, so it is
// no measure of its work), and over the bound of the nominal times (the
// table's).
func BenchmarkSlurmMakespan(b *testing.B) {
	k := slurmtest.Start(b)
	slots := k.CPUs
	j := strconv.Itoa(slots)
	for range b.N {
		var work []float64 // the jobs' times in the first build here
		for _, where := range []string{"local", "slurm"} {
			p := standInProject(b, where)
			table := filepath.Join(p.dir, "ocloc-times.txt")
			nominal := makespanMix(b, table, 240, slots)
			for i := range nominal {
				nominal[i] /= 1000
			}
			p.env = append(p.env, "STANDIN_MS_TABLE="+table)
			args := []string{"-j", j, "-trace", "trace.json"}
			if where == "slurm" {
				p = onCluster(p, k)
				args = append(args, "-executor", "slurm")
			}
			for _, order := range []string{"list order", "longest first"} {
				if order == "longest first" {
					images, _ := filepath.Glob(filepath.Join(p.dir, "out", "spir64_gen", "*.bin"))
					if len(images) != 240 {
						b.Fatalf("%d images after the first build", len(images))
					}
					for _, f := range images {
						os.Remove(f)
					}
				}
				_, s := p.build(args...)
				if s.jobsRan != 240 {
					b.Fatalf("%s, %s: %d module jobs ran, want 240", where, order, s.jobsRan)
				}
				wall, jobs := fanoutTimes(b, filepath.Join(p.dir, "trace.json"))
				if len(jobs) != 240 {
					b.Fatalf("%s, %s: %d jobs in the trace, want 240", where, order, len(jobs))
				}
				if work == nil {
					work = jobs
				}
				bound := lowerBound(work, slots)
				b.Logf("%-5s %-13s -j %s: makespan %.2f s (jobs' own times: longest %.2f s, sum %.1f s); bound %.2f s: %.3f; nominal bound %.2f s: %.3f",
					where, order, j, wall, slices.Max(jobs), sum(jobs), bound, wall/bound, lowerBound(nominal, slots), wall/lowerBound(nominal, slots))
				b.ReportMetric(wall/bound, strings.ReplaceAll(where+"-"+order, " ", "-")+"/bound")
			}
		}
	}
}

// sum is the sum of xs.
func sum(xs []float64) (s float64) {
	for _, x := range xs {
		s += x
	}
	return s
}
