//go:build linux

package slurm

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/slurmtest"
	"github.com/sycbuild/sycbuild/jobs"
)

// BenchmarkDispatch is what running a job as a Slurm step costs beside
// running it here: the same stand-in job (sh -c true) run locally and as a
// step of one allocation of a one-machine cluster, one after another, in one
// run. It reports milliseconds per job for each and their difference:
//
//	go test -run '^$' -bench Dispatch -benchtime 200x ./slurm
func BenchmarkDispatch(b *testing.B) {
	k := slurmtest.Start(b)
	c, err := Open(context.Background(), Settings{Time: "10"}, k.Env)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	dir := b.TempDir()
	job := func() *jobs.Command { return &jobs.Command{Argv: []string{"sh", "-c", "true"}, Dir: dir} }
	var local, step time.Duration
	b.Run("local", func(b *testing.B) {
		t0 := time.Now()
		for i := 0; i < b.N; i++ {
			if _, err := job().Run(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		local = time.Since(t0) / time.Duration(b.N)
		b.ReportMetric(ms(local), "ms/job")
	})
	b.Run("slurm", func(b *testing.B) {
		info := filepath.Join(dir, "step.info")
		t0 := time.Now()
		for i := 0; i < b.N; i++ {
			if _, _, err := c.Run(context.Background(), job(), Step{Info: info}); err != nil {
				b.Fatal(err)
			}
		}
		step = time.Since(t0) / time.Duration(b.N)
		b.ReportMetric(ms(step), "ms/job")
	})
	if local > 0 && step > 0 {
		fmt.Printf("dispatch: local %.2f ms/job, slurm step %.2f ms/job: %.1f ms more per job (%.0fx)\n",
			ms(local), ms(step), ms(step-local), float64(step)/float64(local))
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
