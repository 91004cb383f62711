package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for this program as the copy
// that measure starts (-measure-run).
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "-measure-run" && os.Args[2] == "--" {
		if err := runMeasured(os.Args[3:]); err != nil {
			os.Stderr.WriteString("postlinkbench: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestMeasurePeakRSS: the peak memory measured of a small command is its
// own, not that of this process, however large this process has grown.
func TestMeasurePeakRSS(t *testing.T) {
	big := make([]byte, 256<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1 // resident
	}
	m, err := measure([]string{"sh", "-c", "exit 0"})
	if err != nil {
		t.Fatal(err)
	}
	if m.maxRSS <= 0 || m.maxRSS > 64<<20 {
		t.Errorf("sh's peak RSS measured as %d MiB while this process holds 256 MiB; want sh's own few MiB", m.maxRSS>>20)
	}
	if m.wall <= 0 {
		t.Errorf("wall time %v", m.wall)
	}
	big[1] = big[0] // keep big alive until measured
	if _, err := measure([]string{"sh", "-c", "exit 3"}); err == nil {
		t.Errorf("a failing command measured without an error")
	}
}
