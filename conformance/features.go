package conformance

import (
	"fmt"
	"strings"
)

// EvalFeatures evaluates a lit boolean expression over the available
// features: identifiers ([-+=._a-zA-Z0-9]+, true when the feature is
// available; "true" is always true), '!', '&&', '||' and parentheses.
func EvalFeatures(expr string, have map[string]bool) (bool, error) {
	p := &exprParser{toks: tokenize(expr), have: have}
	if len(p.toks) == 0 {
		return false, fmt.Errorf("empty expression")
	}
	v, err := p.or()
	if err != nil {
		return false, fmt.Errorf("%q: %v", expr, err)
	}
	if p.i != len(p.toks) {
		return false, fmt.Errorf("%q: unexpected %q", expr, p.toks[p.i])
	}
	return v, nil
}

func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case strings.HasPrefix(s[i:], "&&"), strings.HasPrefix(s[i:], "||"):
			toks = append(toks, s[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			toks = append(toks, s[i:i+1])
			i++
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			toks = append(toks, s[i:i+1]) // rejected by the parser
			i++
		}
	}
	return toks
}

func isIdentByte(c byte) bool {
	return strings.IndexByte("-+=._", c) >= 0 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

type exprParser struct {
	toks []string
	i    int
	have map[string]bool
}

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *exprParser) or() (bool, error) {
	v, err := p.and()
	for err == nil && p.peek() == "||" {
		p.i++
		var w bool
		w, err = p.and()
		v = v || w
	}
	return v, err
}

func (p *exprParser) and() (bool, error) {
	v, err := p.not()
	for err == nil && p.peek() == "&&" {
		p.i++
		var w bool
		w, err = p.not()
		v = v && w
	}
	return v, err
}

func (p *exprParser) not() (bool, error) {
	switch t := p.peek(); {
	case t == "!":
		p.i++
		v, err := p.not()
		return !v, err
	case t == "(":
		p.i++
		v, err := p.or()
		if err != nil {
			return false, err
		}
		if p.peek() != ")" {
			return false, fmt.Errorf("missing ')'")
		}
		p.i++
		return v, nil
	case t != "" && isIdentByte(t[0]):
		p.i++
		return t == "true" || p.have[t], nil
	case t == "":
		return false, fmt.Errorf("unexpected end")
	default:
		return false, fmt.Errorf("unexpected %q", t)
	}
}
