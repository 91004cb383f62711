// Package heapfloor keeps Go's collector idle while a process's heap is
// small. A build that runs hundreds of external commands allocates a few
// kilobytes per command and keeps almost none of it: with the runtime's
// smallest goal (4 MiB of heap) it collects every few dozen commands, and
// each cycle wakes threads and scans stacks for nothing. A tool that
// parses and writes one module grows its heap by hundreds of megabytes at
// once and keeps most of it to the end: from 4 MiB the collector runs a
// dozen times while it grows, marking the same data again. The Go
// compiler raises its starting heap goal in the same way.
package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// minGoalPerPercent is the runtime's smallest heap goal per percent of
// GOGC: the goal is never under 4 MiB × GOGC / 100.
const minGoalPerPercent = (4 << 20) / 100

// Set keeps the collector's heap goal at floor bytes while the live heap
// is small, and at what GOGC=percent makes of it once that is more: after
// each collection the goal is floor or live × (1 + percent/100), whichever
// is larger. Set does nothing when GOGC or GOMEMLIMIT is in the
// environment (the collector is then as the user asked), for a floor under
// 8 MiB (twice the runtime's own smallest goal: below that the floor would
// hardly delay a collection), and after its first call in a process.
func Set(floor uint64, percent int) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || floor < 8<<20 {
		return
	}
	once.Do(func() { adjust(floor, uint64(percent)) })
}

var once sync.Once

// adjust sets GOGC from the live heap the last collection found (0
// before the first), which the runtime's goal, live × (1 + GOGC/100), is
// computed from: the percent that puts the goal at floor, capped so that
// the runtime's smallest goal stays within floor, or percent itself where
// that puts the goal at floor or beyond. It runs when Set is called and
// then after each collection, as the cleanup of an object made
// unreachable before it.
func adjust(floor, percent uint64) {
	runtime.AddCleanup(new([64]byte), func(floor uint64) { adjust(floor, percent) }, floor)
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		debug.SetGCPercent(int(percent))
		return
	}
	live := s[0].Value.Uint64()
	if live*(100+percent) >= floor*100 {
		debug.SetGCPercent(int(percent))
		return
	}
	p := floor / minGoalPerPercent
	if live > 0 {
		p = min(p, (floor-live)*100/live)
	}
	debug.SetGCPercent(int(p))
}
