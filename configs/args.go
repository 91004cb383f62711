package configs

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/mattn/go-shellwords"
)

// Args is a list of extra command-line options. In YAML it is either a list
// of strings, taken verbatim, or one string split like a shell would split
// it ("-options '-cl-fast-relaxed-math -g'" is two arguments). A string may
// not contain unquoted shell operators (| ; & < >), because no shell runs the
// command: they would be passed on literally, which is never what was meant.
type Args []string

// UnmarshalYAML implements goccy/go-yaml's NodeUnmarshaler.
func (a *Args) UnmarshalYAML(node ast.Node) error {
	v, err := parseArgs(node)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func parseArgs(node ast.Node) (Args, error) {
	switch n := node.(type) {
	case *ast.StringNode:
		return splitArgs(n.Value)
	case *ast.LiteralNode:
		return splitArgs(n.Value.Value)
	case *ast.SequenceNode:
		out := make(Args, 0, len(n.Values))
		for i, v := range n.Values {
			if v == nil || !isString(v) {
				got := "null"
				if v != nil {
					got = describeNode(v)
				}
				return nil, fmt.Errorf("element %d: expected a string, got %s", i, got)
			}
			switch s := v.(type) {
			case *ast.StringNode:
				out = append(out, s.Value)
			case *ast.LiteralNode:
				out = append(out, s.Value.Value)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("expected a list of strings or a string, got %s", describeNode(node))
}

// splitArgs splits a shell-quoted option string.
func splitArgs(s string) (Args, error) {
	p := shellwords.NewParser()
	p.ParseEnv = false
	p.ParseBacktick = false
	words, err := p.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("cannot split %q into arguments: unterminated quote", s)
	}
	if p.Position != -1 {
		op := "an operator"
		if p.Position >= 0 && p.Position < len(s) {
			op = fmt.Sprintf("%q", s[p.Position:p.Position+1])
		}
		return nil, fmt.Errorf("unquoted shell operator %s in options (no shell runs them: quote it, or write a list)", op)
	}
	return words, nil
}
