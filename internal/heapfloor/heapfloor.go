// Package heapfloor keeps Go's collector idle while a process's heap is
// small. A build that runs hundreds of external commands allocates a few
// kilobytes per command and keeps almost none of it: with the runtime's
// smallest goal (4 MiB of heap) it collects every few dozen commands, and
// each cycle wakes threads and scans stacks for nothing. The Go compiler
// raises its starting heap goal in the same way.
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
// is under half of that; once it is not, GOGC=100 applies as it would
// have from the start. The goal never exceeds floor or twice the live
// heap, whichever is larger. Set does nothing when GOGC or GOMEMLIMIT is
// in the environment (the collector is then as the user asked), for a
// floor under 8 MiB (twice the runtime's own smallest goal: below that the
// floor would hardly delay a collection), and after its first call in a
// process.
func Set(floor uint64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || floor < 8<<20 {
		return
	}
	once.Do(func() { adjust(floor) })
}

var once sync.Once

// watch sets the goal again after the next collection, when the live heap
// it found is known.
func watch(floor uint64) {
	runtime.AddCleanup(new([64]byte), adjust, floor)
}

// adjust sets GOGC from the live heap the last collection found (0
// before the first), which the runtime's goal, live × (1 + GOGC/100), is
// computed from: the percent that puts the goal at floor, capped so that
// the runtime's smallest goal stays within floor; GOGC=100 once the live
// heap is half the floor or more. It runs when Set is called and then
// after each collection (as the cleanup of an object made unreachable
// before it).
func adjust(floor uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() >= floor/2 {
		debug.SetGCPercent(100)
		return
	}
	percent := floor / minGoalPerPercent
	if live := s[0].Value.Uint64(); live > 0 {
		percent = min(percent, (floor-live)*100/live)
	}
	debug.SetGCPercent(int(percent))
	watch(floor)
}
