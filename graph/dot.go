package graph

import (
	"fmt"
	"io"
	"strings"
)

// WriteDOT writes the graph in Graphviz's DOT language, as ninja -t graph
// does: files are ellipses, actions are boxes labelled with their
// description, edges follow the data. Output is deterministic.
func (g *Graph) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph sycbuild {\n")
	b.WriteString("  rankdir=\"LR\"\n")
	b.WriteString("  node [fontsize=10, shape=box, height=0.25]\n")
	b.WriteString("  edge [fontsize=10]\n")
	for _, n := range g.order {
		shape := "ellipse"
		if n.Kind != Plain {
			shape = "note" // a list or table: it names other files
		}
		fmt.Fprintf(&b, "  %s [label=%s, shape=%s]\n", dotID("f", n.Path), dotString(n.Path), shape)
	}
	for _, a := range g.actions {
		label := a.Desc
		if a.Fanout != nil {
			var steps strings.Builder
			for k, s := range a.Fanout.Steps {
				steps.WriteString(s.Tool.Path)
				switch {
				case s.Pipe:
					steps.WriteString(" | ")
				case k < len(a.Fanout.Steps)-1:
					steps.WriteString(" → ")
				}
			}
			label += "\\nfor each line of " + a.Fanout.List.Path + ": " + steps.String()
		}
		id := dotID("a", fmt.Sprint(a.id))
		fmt.Fprintf(&b, "  %s [label=%s]\n", id, dotString(label))
		for _, n := range a.In {
			fmt.Fprintf(&b, "  %s -> %s\n", dotID("f", n.Path), id)
		}
		for _, n := range a.Out {
			fmt.Fprintf(&b, "  %s -> %s\n", id, dotID("f", n.Path))
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dotID(prefix, s string) string { return dotString(prefix + ":" + s) }

// dotString quotes s as a DOT string; "\n" sequences already in s stay
// line breaks in labels.
func dotString(s string) string {
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + s + `"`
}
