package report

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// memChart is the memory the running actions and jobs held over the
// build, on the timeline's time axis: at each moment the sum of the peaks
// (wait4's maxrss) of those running then, an upper bound of what they used
// together, with the build's memory budget when it is known.
type memChart struct {
	Width, Height int
	Area          string // the SVG path of the area under the curve
	Top           string // the value at the top of the drawing
	Peak          string // the largest sum
	PeakY         string
	Budget        string // the budget, or "" when it is not known
	BudgetY       string // where it is drawn, or "" when it is far above the peak
	Over          bool   // the largest sum exceeds the budget
}

const memChartHeight = 90

// layoutMemory draws the memory chart of the events that ran, on the
// time axis x; it returns nil when none ran a child process.
func layoutMemory(ran []*record, x func(time.Time) float64, budget int64) *memChart {
	type step struct {
		t time.Time
		d int64
	}
	var steps []step
	for _, e := range ran {
		if (e.kind == graph.KindAction || e.kind == graph.KindJob) && e.usage != nil && e.usage.MaxRSS > 0 {
			steps = append(steps, step{e.start, e.usage.MaxRSS}, step{e.end, -e.usage.MaxRSS})
		}
	}
	if len(steps) == 0 {
		return nil
	}
	// At one instant, what ends before what starts: no false peak.
	slices.SortFunc(steps, func(a, b step) int { return cmp.Or(a.t.Compare(b.t), cmp.Compare(a.d, b.d)) })

	// The largest sum within each column of the drawing.
	const plot = timelineWidth - labelWidth - rightPad
	col := func(t time.Time) int { return min(max(int(x(t))-labelWidth, 0), plot-1) }
	cols := make([]int64, plot)
	var sum, peak int64
	for i, s := range steps {
		sum += s.d
		peak = max(peak, sum)
		from, to := col(s.t), col(s.t)
		if i+1 < len(steps) {
			to = col(steps[i+1].t)
		}
		for c := from; c <= to; c++ {
			cols[c] = max(cols[c], sum)
		}
	}

	m := &memChart{Width: timelineWidth, Height: memChartHeight}
	// A budget far above the peak is said, not drawn: drawn to scale,
	// it would flatten the curve.
	drawn := budget
	if budget > 2*peak {
		drawn = 0
	}
	top := float64(max(peak, drawn)) * 1.08
	const base, h = memChartHeight - 6, memChartHeight - 20
	y := func(v int64) float64 { return base - float64(v)/top*h }
	var p strings.Builder
	p.WriteString("M" + coord(labelWidth) + "," + coord(base))
	last := int64(0)
	for c, v := range cols {
		if v != last {
			p.WriteString("L" + coord(float64(labelWidth+c)) + "," + coord(y(last)) + "L" + coord(float64(labelWidth+c)) + "," + coord(y(v)))
			last = v
		}
	}
	p.WriteString("L" + coord(labelWidth+plot) + "," + coord(y(last)) + "L" + coord(labelWidth+plot) + "," + coord(base) + "Z")
	m.Area = p.String()
	m.Top = formatBytes(int64(top))
	m.Peak, m.PeakY = formatBytes(peak), coord(y(peak))
	if budget > 0 {
		m.Budget, m.Over = formatBytes(budget), peak > budget
	}
	if drawn > 0 {
		m.BudgetY = coord(y(budget))
	}
	return m
}
