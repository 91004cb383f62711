package report

import (
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sycbuild/sycbuild/graph"
)

// timeline is the build drawn as SVG: one lane per job slot, holding the
// actions and jobs that ran on it (a job's commands drawn inside it), then
// lanes for the fan-outs, which hold no slot.
type timeline struct {
	Width, Height int
	Label         int // the width of the lanes' labels
	Lanes         []lane
	Ticks         []tick
	Bars          []bar
	Legend        []swatch
	Note          string // what is not drawn
	Memory        *memChart
}

type lane struct {
	Y, H  int
	Label string
	Odd   bool
}

type tick struct {
	X      string
	Label  string
	Anchor string // "middle", or "end" at the right edge
}

// bar is one span: its box, its colour, and what its tooltip says.
type bar struct {
	Kind       string // the event's kind, for data-kind
	X, Y, W, H string
	Fill       string
	Failed     bool
	FellBack   bool // a job that survived a failed command
	Title      string
	Text       string // a label drawn on the bar, if it is wide enough
	TX, TY     string
	Dark       bool // the label is dark (on a light bar)
}

type swatch struct {
	Fill, Name string
}

// The geometry of the drawing, in SVG user units (about pixels).
const (
	timelineWidth = 1360
	labelWidth    = 92
	rightPad      = 14
	axisHeight    = 22
	slotLane      = 28
	fanoutLane    = 20
	charWidth     = 6.4 // of the 11px labels, for cutting them to fit
	// maxCommandBars is the most commands drawn: a bigger build's
	// timeline draws its jobs alone.
	maxCommandBars = 6000
)

// toolColors are the tools' fills; a failure is always failColor.
var toolColors = []string{
	"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
	"#edc948", "#9c755f", "#ff9da7", "#8cd17d", "#499894", "#86bcb6", "#bab0ac",
}

// knownToolColors fixes the colour of each tool a build runs, so that
// ocloc is the same colour in every report, whatever else ran.
var knownToolColors = map[string]string{
	"ocloc": toolColors[0], "llvm-spirv": toolColors[1], "llc": toolColors[2], "sycl-post-link": toolColors[3],
	"spirv-val": toolColors[4], "llvm-as": toolColors[5], "clang-offload-wrapper": toolColors[6],
	"ptxas": toolColors[7], "llvm-link": toolColors[8], "fatbinary": toolColors[9],
	"file-table-tform": toolColors[10], "llvm-foreach": toolColors[11],
}

// toolColor is a tool's fill: its own for the tools a build runs, and one
// chosen by its name's hash for any other, the same in every report.
func toolColor(name string) string {
	if c, ok := knownToolColors[name]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return toolColors[h.Sum32()%uint32(len(toolColors))]
}

const (
	failColor   = "#d62728"
	jobColor    = "#dde4ec"
	fanoutColor = "#cfc6dc"
	// fallbackColor outlines a job that fell back.
	fallbackColor = "#e8a100"
	// restoredColor is what the shared cache restored instead of running.
	restoredColor = "#a0cbe8"
)

// layoutTimeline draws the events that ran, and the memory they held
// beside the budget; events must be sorted by compareRecords. It returns
// nil when nothing ran.
func layoutTimeline(events []record, budget int64) *timeline {
	var ran []*record
	var t0, t1 time.Time
	for i := range events {
		e := &events[i]
		if !e.ran() || (e.kind != graph.KindFanout && e.slot < 0) {
			continue // nothing to draw, or nothing to draw it on
		}
		ran = append(ran, e)
		if t0.IsZero() || e.start.Before(t0) {
			t0 = e.start
		}
		if e.end.After(t1) {
			t1 = e.end
		}
	}
	if len(ran) == 0 {
		return nil
	}
	span := max(t1.Sub(t0), time.Millisecond)
	scale := float64(timelineWidth-labelWidth-rightPad) / float64(span)
	d := &drawing{
		tl: &timeline{Width: timelineWidth, Label: labelWidth},
		x:  func(t time.Time) float64 { return labelWidth + float64(t.Sub(t0))*scale },
	}
	d.tl.Memory = layoutMemory(ran, d.x, budget)
	d.colours(ran)
	ran = d.foldCommands(ran)
	d.lanes(ran)
	for _, e := range ran {
		d.tl.Bars = append(d.tl.Bars, d.bar(e))
	}
	step := tickStep(span)
	for t := time.Duration(0); t <= span; t += step {
		x := d.x(t0.Add(t))
		tk := tick{X: coord(x), Label: formatDuration(t), Anchor: "middle"}
		if x > timelineWidth-30 {
			tk.Anchor = "end"
		}
		d.tl.Ticks = append(d.tl.Ticks, tk)
	}
	return d.tl
}

// drawing is a timeline being laid out.
type drawing struct {
	tl         *timeline
	x          func(time.Time) float64 // where a time is
	laneY      map[int]int             // the top of each slot's lane
	fanoutLane map[*record]int         // the lane of each fan-out
	colourOf   map[string]string       // each tool's fill
	commandsOf map[jobKey][]*record    // the commands of each job, when not drawn
}

// colours gives each tool that ran a colour, and writes the legend.
func (d *drawing) colours(ran []*record) {
	tools := map[string]bool{}
	for _, e := range ran {
		if e.kind == graph.KindAction || e.kind == graph.KindCommand {
			tools[e.tool] = true
		}
	}
	d.colourOf = map[string]string{}
	for _, name := range sortedKeys(tools) {
		d.colourOf[name] = toolColor(name)
		d.tl.Legend = append(d.tl.Legend, swatch{d.colourOf[name], name})
	}
	d.tl.Legend = append(d.tl.Legend, swatch{jobColor, "module job"}, swatch{fanoutColor, "fan-out"}, swatch{failColor, "failed"})
	if slices.ContainsFunc(ran, func(e *record) bool { return e.fallback != "" }) {
		d.tl.Legend = append(d.tl.Legend, swatch{fallbackColor, "fell back (outlined)"})
	}
	if slices.ContainsFunc(ran, func(e *record) bool { return e.outcome == graph.Restored }) {
		d.tl.Legend = append(d.tl.Legend, swatch{restoredColor, "restored from the shared cache"})
	}
}

// foldCommands leaves a big build's commands out of ran: each job is then
// drawn in the colour of its slowest command, its tooltip listing them all.
func (d *drawing) foldCommands(ran []*record) []*record {
	n := countKind(ran, graph.KindCommand)
	if n <= maxCommandBars {
		return ran
	}
	d.commandsOf = map[jobKey][]*record{}
	var kept []*record
	for _, e := range ran {
		if e.kind == graph.KindCommand {
			k := jobKey{e.action, e.item}
			d.commandsOf[k] = append(d.commandsOf[k], e)
			continue
		}
		kept = append(kept, e)
	}
	d.tl.Note = strconv.Itoa(n) + " commands are drawn as their jobs, in the colour of each job's slowest command."
	return kept
}

// lanes lays out one lane per job slot, in order, then as many fan-out
// lanes as fan-outs overlap (each fan-out on the first lane free when it
// starts).
func (d *drawing) lanes(ran []*record) {
	slots := map[int]bool{}
	for _, e := range ran {
		if e.kind != graph.KindFanout {
			slots[e.slot] = true
		}
	}
	d.laneY = map[int]int{}
	y := axisHeight
	for i, s := range sortedKeys(slots) {
		d.laneY[s] = y
		d.tl.Lanes = append(d.tl.Lanes, lane{Y: y, H: slotLane, Label: "slot " + strconv.Itoa(s), Odd: i%2 == 1})
		y += slotLane
	}
	var ends []time.Time
	d.fanoutLane = map[*record]int{}
	for _, e := range ran {
		if e.kind != graph.KindFanout {
			continue
		}
		k := slices.IndexFunc(ends, func(end time.Time) bool { return !end.After(e.start) })
		if k < 0 {
			k = len(ends)
			ends = append(ends, e.end)
			label := ""
			if k == 0 {
				label = "fan-outs"
			}
			d.tl.Lanes = append(d.tl.Lanes, lane{Y: y, H: fanoutLane, Label: label, Odd: (len(slots)+k)%2 == 1})
			y += fanoutLane
		}
		ends[k] = e.end
		d.fanoutLane[e] = len(slots) + k
	}
	d.tl.Height = y + 4
}

// bar draws one event on its lane.
func (d *drawing) bar(e *record) bar {
	x0, x1 := d.x(e.start), d.x(e.end)
	b := bar{Kind: kindName(e.kind), X: coord(x0), W: coord(max(x1-x0, 0.6)), Failed: e.outcome == graph.Failed,
		FellBack: e.fallback != "", Title: tooltip(e)}
	var top, h float64
	switch e.kind {
	case graph.KindAction:
		top, h = float64(d.laneY[e.slot])+4, slotLane-8
		b.Fill = d.colourOf[e.tool]
		b.Text = e.desc
	case graph.KindJob:
		top, h = float64(d.laneY[e.slot])+2, slotLane-4
		b.Fill, b.Dark = jobColor, true
		if cmds := d.commandsOf[jobKey{e.action, e.item}]; len(cmds) > 0 {
			slowest := cmds[0]
			var list strings.Builder
			for _, c := range cmds {
				if c.wall() > slowest.wall() {
					slowest = c
				}
				list.WriteString("\n  " + c.tool + " " + formatDuration(c.wall()))
			}
			top, h = float64(d.laneY[e.slot])+4, slotLane-8
			b.Fill, b.Dark = d.colourOf[slowest.tool], false
			b.Title += list.String()
		}
	case graph.KindCommand:
		top, h = float64(d.laneY[e.slot])+6, slotLane-12
		b.Fill = d.colourOf[e.tool]
		b.Text = e.tool
	case graph.KindFanout:
		top, h = float64(d.tl.Lanes[d.fanoutLane[e]].Y)+3, fanoutLane-6
		b.Fill, b.Dark = fanoutColor, true
		b.Text = e.desc + " · " + plural(e.jobs, "job")
	}
	switch {
	case b.Failed:
		b.Fill, b.Dark = failColor, false
	case e.outcome == graph.Restored:
		b.Fill, b.Dark = restoredColor, true
	}
	b.Y, b.H = coord(top), coord(h)
	if n := int((x1 - x0 - 6) / charWidth); b.Text != "" && n >= 4 {
		b.Text = cut(b.Text, n)
		b.TX, b.TY = coord(x0+3), coord(top+h/2+4)
	} else {
		b.Text = ""
	}
	return b
}

func countKind(events []*record, k graph.Kind) int {
	n := 0
	for _, e := range events {
		if e.kind == k {
			n++
		}
	}
	return n
}

// tickStep is the time between the axis' ticks: 1, 2 or 5 times a power
// of ten, giving about eight ticks over span.
func tickStep(span time.Duration) time.Duration {
	raw := float64(span) / 8
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= raw {
			return max(time.Duration(m*pow), time.Microsecond)
		}
	}
	return time.Duration(10 * pow)
}

// tooltip is a bar's title: what it is, where and how long it ran, how it
// ended and what it cost.
func tooltip(e *record) string {
	var b strings.Builder
	b.WriteString(e.desc)
	if e.kind == graph.KindFanout {
		b.WriteString("\n" + plural(e.jobs, "job"))
	} else {
		b.WriteString("\nslot " + strconv.Itoa(e.slot))
	}
	b.WriteString(" · " + formatDuration(e.wall()) + " · " + outcomeName(e.outcome))
	if e.cache != "" {
		b.WriteString(" (shared cache: " + e.cache + ")")
	}
	if e.fallback != "" {
		b.WriteString("\nfell back: " + e.fallback)
	}
	if u := e.usage; u != nil {
		b.WriteString("\npeak RSS " + formatBytes(u.MaxRSS) + " · user " + formatDuration(u.User) + " · system " + formatDuration(u.System))
	}
	if len(e.argv) > 0 {
		b.WriteString("\n" + cut(graph.ShellQuote(e.argv), 400))
	}
	if e.err != "" {
		b.WriteString("\n" + cut(e.err, 400))
	}
	return b.String()
}

// cut shortens s to at most n runes, the last one "…" when it is cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n-1 {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// coord writes a coordinate with one decimal.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
