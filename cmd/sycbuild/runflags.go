package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// memoryBudget returns the budget -m asks for, in bytes (0: none).
func (r *runFlags) memoryBudget() (int64, error) {
	if r.memory == "" {
		return availableMemory(), nil
	}
	n, err := parseSize(r.memory)
	if err != nil {
		return 0, fmt.Errorf("-m %s: %v", r.memory, err)
	}
	return n, nil
}

// parseSize reads a size in bytes with an optional K, M, G or T suffix
// (powers of 1024; a trailing "B" or "iB" is allowed).
func parseSize(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("not a size (want a number of bytes, with K, M, G or T)")
	}
	return int64(v * float64(mult)), nil
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
