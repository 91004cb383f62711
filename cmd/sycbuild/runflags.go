package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
)

// runFlags say how a build uses the machine and what it reports:
//
//	-m SIZE        the memory budget (default: the memory available)
//	-report FILE   an HTML report of the build
//	-executor E    where the external commands run: local or slurm
type runFlags struct {
	memory   string
	report   string
	executor string
}

func (r *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.memory, "m", "", "keep the predicted peak memory of the commands running at once under `size` (e.g. 16G, 900M; 0: no budget; default: the memory available when the build starts)")
	fs.StringVar(&r.executor, "executor", "", "run the external commands `where`: local (this machine) or slurm (as job steps of a Slurm allocation, docs/slurm.md); default: the config's executor, else local")
	fs.StringVar(&r.report, "report", "", "write an HTML report of the build to `file.html` (timeline per job slot, slowest commands, image sizes, cache hits, memory per job, failures)")
}

// memoryBudget returns the memory budget in bytes (0: none): -m's, else
// the config's memory:, else available (the memory available now, or the
// allocation's where the commands run on a cluster).
func (r *runFlags) memoryBudget(cfg *configs.Config, available int64) (int64, error) {
	switch {
	case r.memory != "":
		n, err := configs.ParseSize(r.memory)
		if err != nil {
			return 0, fmt.Errorf("-m: %v", err)
		}
		return n, nil
	case cfg.Memory != "":
		return configs.ParseSize(cfg.Memory) // checked when the config was loaded
	}
	return available, nil
}

// availableMemory is MemAvailable from /proc/meminfo, or 0 (no budget)
// where the system does not say.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
