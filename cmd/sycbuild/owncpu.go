package main

import (
	"strconv"
	"sync"
	"time"

	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/jobs"
)

// fanoutCPU measures sycbuild's own CPU time while fan-outs run: what
// coordinating the external commands costs while they run, without the
// build's start and its in-process steps before and after (the split, the
// wrapper). -trace records it beside the whole process's.
type fanoutCPU struct {
	graph.NopObserver
	mu        sync.Mutex
	running   map[int]bool  // the fan-outs started and not finished
	since     time.Time     // when the first of them started
	fromUser  time.Duration // the CPU time used when the first started
	fromSys   time.Duration
	user, sys time.Duration // summed over the times some fan-out ran
	wall      time.Duration
}

func (o *fanoutCPU) Started(e graph.Event) {
	if e.Kind != graph.KindFanout {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.running) == 0 {
		o.since = time.Now()
		o.fromUser, o.fromSys, _ = jobs.SelfCPU()
	}
	if o.running == nil {
		o.running = map[int]bool{}
	}
	o.running[e.Action] = true
}

func (o *fanoutCPU) Finished(e graph.Event) {
	if e.Kind != graph.KindFanout {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.running[e.Action] {
		return // up to date, or never started
	}
	delete(o.running, e.Action)
	if len(o.running) > 0 {
		return
	}
	user, sys, ok := jobs.SelfCPU()
	if !ok {
		return
	}
	o.user += user - o.fromUser
	o.sys += sys - o.fromSys
	o.wall += time.Since(o.since)
}

// record writes what was measured into the trace's metadata; nothing when
// no fan-out ran.
func (o *fanoutCPU) record(t *graph.Trace) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.wall == 0 {
		return
	}
	t.SetMeta("fanout_wall_seconds", seconds(o.wall))
	t.SetMeta("sycbuild_fanout_user_seconds", seconds(o.user))
	t.SetMeta("sycbuild_fanout_system_seconds", seconds(o.sys))
}

// seconds formats d in seconds with three decimals.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
