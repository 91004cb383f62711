package slurm

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for sycbuild on a node: a Runner's
// step runs it as "<test binary> slurm-step …".
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == StepCommand {
		os.Exit(StepMain(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}
