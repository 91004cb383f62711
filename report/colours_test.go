package report

import (
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

// TestStableColours: a tool's colour in the timeline does not depend on
// which other tools ran: ocloc is the same in a build that also ran
// llvm-as and in one that did not; the tools a build runs all differ.
func TestStableColours(t *testing.T) {
	legend := func(tools ...string) map[string]string {
		t0 := time.Unix(1000, 0)
		var events []record
		for i, tool := range tools {
			events = append(events, record{kind: graph.KindAction, tool: tool, desc: tool, slot: 0, outcome: graph.Ran,
				start: t0.Add(time.Duration(i) * time.Second), end: t0.Add(time.Duration(i+1) * time.Second)})
		}
		fills := map[string]string{}
		for _, s := range layoutTimeline(events, 0).Legend {
			fills[s.Name] = s.Fill
		}
		return fills
	}
	a := legend("ocloc", "sycl-post-link")
	b := legend("llvm-as", "llvm-link", "ocloc", "sycl-post-link")
	if a["ocloc"] != b["ocloc"] || a["sycl-post-link"] != b["sycl-post-link"] {
		t.Errorf("colours change with the tools that ran: %v and %v", a, b)
	}
	if c := legend("zz-tool"); c["zz-tool"] != legend("aa-tool", "zz-tool")["zz-tool"] {
		t.Errorf("an unknown tool's colour changes with the tools that ran")
	}
	seen := map[string]string{}
	for tool, fill := range knownToolColors {
		if other, dup := seen[fill]; dup {
			t.Errorf("%s and %s share the colour %s", tool, other, fill)
		}
		seen[fill] = tool
	}
}
