package report

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// bigBuild is a fan-out of n module jobs of four commands each, on 16
// slots, as a 13,000-kernel per_kernel build has.
func bigBuild(n int) []graph.Event {
	tools := []string{"llvm-as", "llvm-spirv", "spirv-val", "ocloc"}
	var events []graph.Event
	for i := range n {
		item := "out/spir64_gen/module_" + strconv.Itoa(i) + ".ll"
		desc := "[spir64_gen] ocloc " + item
		start := at(i / 16 * 40)
		usage := &graph.Usage{User: 30 * time.Millisecond, MaxRSS: int64(100+i%50) << 20}
		var outs []string
		for k, tool := range tools {
			out := "out/spir64_gen/module_" + strconv.Itoa(i) + "." + strconv.Itoa(k)
			outs = append(outs, out)
			events = append(events, graph.Event{Kind: graph.KindCommand, Action: 3, Desc: desc + " (" + tool + ")", Tool: tool, Item: item,
				Argv: []string{tool, "-o", out, "-some", "options", "-device", "pvc,acm-g10", item}, Outputs: []string{out},
				Slot: i % 16, Start: start.Add(time.Duration(k) * 10 * time.Millisecond), End: start.Add(time.Duration(k+1) * 10 * time.Millisecond),
				Outcome: graph.Ran, Usage: usage})
		}
		events = append(events, graph.Event{Kind: graph.KindJob, Action: 3, Desc: desc, Tool: "llvm-as", Item: item, Outputs: outs,
			Slot: i % 16, Start: start, End: start.Add(40 * time.Millisecond), Outcome: graph.Ran, Usage: usage})
	}
	return events
}

// TestBigBuild: the page of a 13,000-module build stays a size a browser
// opens at once.
func TestBigBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	r := New(Options{})
	for _, e := range bigBuild(13000) {
		r.Finished(e)
	}
	var page strings.Builder
	if err := r.Write(&page); err != nil {
		t.Fatal(err)
	}
	n := page.Len()
	t.Logf("page of 13,000 module jobs: %d bytes", n)
	tl := section(t, page.String(), "timeline")
	if jobs, cmds := strings.Count(tl, `data-kind="job"`), strings.Count(tl, `data-kind="command"`); jobs != 13000 || cmds != 0 {
		t.Errorf("the timeline draws %d jobs and %d commands, want the 13000 jobs alone", jobs, cmds)
	}
	if !strings.Contains(tl, "52000 commands are drawn as their jobs") {
		t.Errorf("the timeline does not say its commands are not drawn")
	}
	if n > 12<<20 {
		t.Errorf("page of 13,000 module jobs is %d bytes, want at most 12 MiB", n)
	}
}

func BenchmarkWrite13000(b *testing.B) {
	r := New(Options{})
	for _, e := range bigBuild(13000) {
		r.Finished(e)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := r.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
