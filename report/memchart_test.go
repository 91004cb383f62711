package report

import (
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/graph"
)

// TestMemoryChart: the chart sums the peaks of what runs at once; what
// ends at an instant is gone before what starts then counts.
func TestMemoryChart(t *testing.T) {
	const mib = 1 << 20
	events := []graph.Event{
		{Kind: graph.KindJob, Action: 1, Desc: "[t] a m0", Item: "m0", Slot: 0, Start: at(0), End: at(100), Outcome: graph.Ran,
			Usage: &graph.Usage{MaxRSS: 100 * mib}},
		{Kind: graph.KindJob, Action: 1, Desc: "[t] a m1", Item: "m1", Slot: 1, Start: at(50), End: at(150), Outcome: graph.Ran,
			Usage: &graph.Usage{MaxRSS: 50 * mib}},
		{Kind: graph.KindAction, Action: 2, Desc: "[t] c", Tool: "c", Slot: 0, Start: at(100), End: at(120), Outcome: graph.Ran,
			Usage: &graph.Usage{MaxRSS: 80 * mib}},
		// A command's memory is its job's: not counted again.
		{Kind: graph.KindCommand, Action: 1, Desc: "[t] a m0 (x)", Item: "m0", Tool: "x", Slot: 0, Start: at(0), End: at(100), Outcome: graph.Ran,
			Usage: &graph.Usage{MaxRSS: 100 * mib}},
	}
	for _, c := range []struct {
		budget int64
		want   []string
		not    []string
	}{
		{0, []string{">peak 150.0 MiB</text>", `<path class="mem" d="M92.0,84.0L`}, []string{"budget"}},
		{128 * mib, []string{">peak 150.0 MiB</text>", `<line class="budget over"`, ">budget 128.0 MiB</text>"}, nil},
		{256 * mib, []string{">peak 150.0 MiB</text>", `<line class="budget"`, ">budget 256.0 MiB</text>"}, nil},
		{64 << 30, []string{">peak 150.0 MiB</text>", ">budget 64.0 GiB (far above)</text>", `<path class="mem" d="M92.0,84.0L`}, []string{"<line class=\"budget"}},
	} {
		r := New(Options{Budget: c.budget})
		for _, e := range events {
			r.Finished(e)
		}
		chart := section(t, render(t, r), "timeline")
		chart = chart[strings.Index(chart, `<svg class="timeline memchart"`):]
		for _, w := range c.want {
			if !strings.Contains(chart, w) {
				t.Errorf("budget %d: the chart lacks %q:\n%s", c.budget, w, chart)
			}
		}
		for _, w := range c.not {
			if strings.Contains(chart, w) {
				t.Errorf("budget %d: the chart has %q:\n%s", c.budget, w, chart)
			}
		}
	}

	// The curve's highest point is the peak: 150 MiB of a drawing whose
	// top is 8% above it.
	r := New(Options{})
	for _, e := range events {
		r.Finished(e)
	}
	m := r.page().Timeline.Memory
	if want := coord(84 - 150.0/(150*1.08)*70); m.PeakY != want || !strings.Contains(m.Area, ","+want+"L") {
		t.Errorf("peak at y=%s, want %s; path %s", m.PeakY, want, m.Area)
	}
	if strings.Contains(m.Area, coord(84-230.0/(150*1.08)*70)) {
		t.Errorf("the path counts the action that starts as the first job ends while it still runs: %s", m.Area)
	}
}

// TestMemoryChartNone: no child process, no chart.
func TestMemoryChartNone(t *testing.T) {
	r := New(Options{Budget: 1 << 30})
	r.Finished(graph.Event{Kind: graph.KindAction, Desc: "[t] in-process", Slot: 0, Start: at(0), End: at(5), Outcome: graph.Ran})
	if strings.Contains(render(t, r), `<svg class="timeline memchart"`) {
		t.Errorf("a memory chart without memory")
	}
}
