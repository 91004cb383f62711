package main

import (
	"testing"

	"github.com/sycbuild/sycbuild/configs"
)

func TestMemoryBudget(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512": 512, "900M": 900 << 20, "16G": 16 << 30, "1.5g": 3 << 29, "2GiB": 2 << 30, "64k": 64 << 10, "1T": 1 << 40} {
		r := runFlags{memory: in}
		if got, err := r.memoryBudget(&configs.Config{Memory: "1G"}, 0); err != nil || got != want {
			t.Errorf("-m %s: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"G", "-1G", "12Q", "1e30"} {
		r := runFlags{memory: bad}
		if _, err := r.memoryBudget(&configs.Config{}, 0); err == nil {
			t.Errorf("-m %s accepted", bad)
		}
	}
	if got, _ := (&runFlags{}).memoryBudget(&configs.Config{Memory: "3G"}, 0); got != 3<<30 {
		t.Errorf("memory: 3G gave %d", got)
	}
	// On a cluster, what is available is the allocation's memory.
	if got, _ := (&runFlags{}).memoryBudget(&configs.Config{}, 5<<30); got != 5<<30 {
		t.Errorf("no -m, no memory:, 5G available gave %d", got)
	}
	if availableMemory() <= 0 {
		t.Error("no MemAvailable read from /proc/meminfo")
	}
}
