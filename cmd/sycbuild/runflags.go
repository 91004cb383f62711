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
type runFlags struct {
	memory string
	report string
}

func (r *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.memory, "m", "", "keep the predicted peak memory of the commands running at once under `size` (e.g. 16G, 900M; 0: no budget; default: the memory available when the build starts)")
	fs.StringVar(&r.report, "report", "", "write an HTML report of the build to `file.html` (timeline per job slot, slowest commands, image sizes, cache hits, memory per job, failures)")
}

// memoryBudget returns the memory budget in bytes (0: none): -m's, else
// the config's memory:, else the memory available now.
func (r *runFlags) memoryBudget(cfg *configs.Config) (int64, error) {
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
	return availableMemory(), nil
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
