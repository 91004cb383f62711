package main

import (
	"bytes"
	"encoding/json"
	"strconv"
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
	n := 0
	burn := func() {
		for start := time.Now(); time.Since(start) < 60*time.Millisecond; {
			n++
		}
	}
	burn()
	o.Finished(graph.Event{Kind: graph.KindFanout, Action: 1})
	burn()
	o.Finished(graph.Event{Kind: graph.KindFanout, Action: 2})
	time.Sleep(100 * time.Millisecond) // no fan-out runs: not counted
	m := meta(o)
	wall, _ := strconv.ParseFloat(m["fanout_wall_seconds"], 64)
	user, _ := strconv.ParseFloat(m["sycbuild_fanout_user_seconds"], 64)
	sys, _ := strconv.ParseFloat(m["sycbuild_fanout_system_seconds"], 64)
	// Counting the first loop twice would give 180 ms, the sleep 220 ms.
	if wall < 0.12 || wall > 0.165 {
		t.Errorf("fan-out wall %.3fs, want the 120 ms of the two loops, counted once (the sleep after is no fan-out's)", wall)
	}
	if user+sys < 0.06 {
		t.Errorf("own CPU while the fan-outs ran %.3fs + %.3fs, want most of the loops' 120 ms (%d turns)", user, sys, n)
	}
}
