package heapfloor

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var sink [][]byte

// churn allocates n bytes in 4 KiB pieces, keeping none, and returns how
// many collections ran meanwhile.
func churn(n int) uint32 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n / 4096 {
		sink = append(sink[:0], make([]byte, 4096))
	}
	runtime.ReadMemStats(&m1)
	return m1.NumGC - m0.NumGC
}

// The floor keeps the collector idle while the heap is small, gives way
// to GOGC=100 once the live heap is half the floor, and holds again once
// the live heap is small again. The collector's
// settings are the process's: the test runs in a process of its own.
func TestFloor(t *testing.T) {
	if os.Getenv("HEAPFLOOR_TEST_PROCESS") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFloor$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "HEAPFLOOR_TEST_PROCESS=1", "GOGC=", "GOMEMLIMIT=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	runtime.GC()
	if n := churn(24 << 20); n == 0 {
		t.Fatalf("without a floor, 24 MiB of garbage ran no collection, want some (4 MiB goal)")
	}
	const floor = 64 << 20
	runtime.GC() // no cycle under way, and the live heap measured
	Set(floor, 100)
	if p := gogc(); p != floor/minGoalPerPercent {
		t.Fatalf("GOGC after Set = %d, want %d", p, floor/minGoalPerPercent)
	}
	if n := churn(24 << 20); n != 0 {
		t.Fatalf("with a 64 MiB floor, 24 MiB of garbage ran %d collections, want none", n)
	}
	// After a collection the goal is the floor again: live × (1 + GOGC/100).
	keep := make([][]byte, 0, 40<<20/4096)
	for range 20 << 20 / 4096 {
		keep = append(keep, make([]byte, 4096))
	}
	runtime.GC()
	waitFor(t, func() bool { return gogc() != floor/minGoalPerPercent }, "the goal to be set again after a collection")
	if p := gogc(); p < 150 || p > 250 {
		t.Fatalf("GOGC after a collection with a live heap of 20 MiB = %d, want about 220", p)
	}
	// A live heap of half the floor or more: GOGC=100 from then on.
	for len(keep) < cap(keep) {
		keep = append(keep, make([]byte, 4096))
	}
	runtime.GC()
	waitFor(t, func() bool { return gogc() == 100 }, "GOGC=100 once the live heap is 40 MiB")
	runtime.KeepAlive(keep)
	// The floor again once the live heap is small again.
	keep = nil
	runtime.GC()
	waitFor(t, func() bool { return gogc() > 300 }, "the floor again once the live heap is small")
}

// waitFor waits for cond, which a cleanup makes true after a collection;
// cleanups run on their own goroutine, some time after it.
func waitFor(t *testing.T, cond func() bool, what string) {
	for range 5000 {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s (GOGC %d)", what, gogc())
}
