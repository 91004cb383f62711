package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// TestFanoutCPU: the time some fan-out runs is measured once however many
// overlap, with this process's CPU in it; a fan-out that did not start
// (up to date) counts nothing, and a build with no fan-out records nothing.
func TestFanoutCPU(t *testing.T) {
	meta := func(o *fanoutCPU) map[string]string {
		t.Helper()
		tr := graph.NewTrace()
		o.record(tr)
		var b bytes.Buffer
		if _, err := tr.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		var out struct {
			OtherData map[string]string `json:"otherData"`
		}
		if err := json.Unmarshal(b.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return out.OtherData
	}
	o := &fanoutCPU{}
	o.Finished(graph.Event{Kind: graph.KindFanout, Action: 7}) // up to date
	if m := meta(o); len(m) != 0 {
		t.Fatalf("no fan-out ran, the trace says %v", m)
	}
	o.Started(graph.Event{Kind: graph.KindFanout, Action: 1})
	o.Started(graph.Event{Kind: graph.KindFanout, Action: 2})
	o.Started(graph.Event{Kind: graph.KindJob, Action: 2}) // not a fan-out
	// The loops run for a given CPU time, not wall time, so that a loaded
	// machine slows them down without changing what they measure.
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	n := 0
	burn := func() {
		for c0 := cpu(); cpu()-c0 < 60*time.Millisecond; {
			n++
		}
	}
	t0 := time.Now()
	burn()
	o.Finished(graph.Event{Kind: graph.KindFanout, Action: 1})
	burn()
	o.Finished(graph.Event{Kind: graph.KindFanout, Action: 2})
	loops := time.Since(t0).Seconds()
	time.Sleep(100 * time.Millisecond) // no fan-out runs: not counted
	m := meta(o)
	wall, _ := strconv.ParseFloat(m["fanout_wall_seconds"], 64)
	user, _ := strconv.ParseFloat(m["sycbuild_fanout_user_seconds"], 64)
	sys, _ := strconv.ParseFloat(m["sycbuild_fanout_system_seconds"], 64)
	// Counting the first loop twice would add its wall time (half the
	// loops'), counting the sleep 100 ms.
	if wall < loops-0.01 || wall > loops+min(loops/4, 0.05) {
		t.Errorf("fan-out wall %.3fs, want the %.3fs of the two loops, counted once (the sleep after is no fan-out's)", wall, loops)
	}
	if user+sys < 0.1 {
		t.Errorf("own CPU while the fan-outs ran %.3fs + %.3fs, want the loops' 120 ms (%d turns)", user, sys, n)
	}
}
