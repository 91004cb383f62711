package configs

import (
	"bytes"
	"fmt"
)

// Limits on a config, checked before the YAML parser sees it. A config
// needs a few kilobytes and five levels of nesting (targets[].options.tool[]);
// the limits are far above that, and keep a hostile file from costing
// gigabytes: goccy/go-yaml's parser takes memory quadratic in the nesting
// depth (10,000 nested "[" or "- " allocate about 150 MB, 100,000 about
// 15 GB), and the shape walk recurses once per level. The parser's cost is
// upstream's: every level copies its parent's path
// (https://github.com/goccy/go-yaml/pull/902 proposes a depth limit in the
// parser; until a release has it, sycbuild checks first).
const (
	// MaxSize is the largest config file read, in bytes.
	MaxSize = 16 << 20
	// MaxDepth is the deepest nesting of mappings and lists allowed.
	MaxDepth = 32
	// MaxKeys is the most keys one mapping may hold: goccy/go-yaml's
	// parser takes time quadratic in a block mapping's keys (20,000 keys:
	// 5 s; 500,000, under MaxSize: over 15 minutes). A config's largest
	// mapping has a few dozen.
	MaxKeys = 1000
)

// checkLimits reports a config over MaxSize, nested deeper than MaxDepth or
// with a mapping of more than MaxKeys keys, at the position where the limit
// is passed. Keys are counted as the lines at a block mapping's indentation
// that are no list items, and the commas of a flow mapping. The depth is measured without
// parsing, in one pass over the lines, by counting what opens a level: each
// indentation deeper than the enclosing line's, each "- " or "? " that
// starts a compact collection on a line, and each unclosed "[" or "{"
// outside quotes, comments and block scalars. It is an estimate, not a
// parse: a list written at its key's indentation ("key:\n- x") is a level
// it does not count, so a file it passes is nested at most about twice
// MaxDepth deep, still far from what costs the parser anything.
func checkLimits(file string, data []byte) *Error {
	if len(data) > MaxSize {
		return &Error{File: file, Line: 1, Col: 1, Msg: fmt.Sprintf("the config is %d bytes; the limit is %d", len(data), MaxSize)}
	}
	sc := limitScanner{file: file, scalarIndent: -1}
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		if err := sc.line(l); err != nil {
			return err
		}
	}
	return nil
}

// limitScanner is checkLimits' state between lines.
type limitScanner struct {
	file         string
	lineNo       int
	indents      []int // indentation of the enclosing block lines
	keys         []int // keys seen at each of those indentations
	flow         int   // open flow collections
	flowKeys     []int // keys of each open flow collection; -1: a list
	scalarIndent int   // the indentation of a block scalar's key; -1: none
}

// line reads one line, l.
func (sc *limitScanner) line(l []byte) *Error {
	sc.lineNo++
	ind := 0
	for ind < len(l) && l[ind] == ' ' {
		ind++
	}
	rest := bytes.TrimRight(l[ind:], " \t\r")
	if sc.scalarIndent >= 0 {
		if len(rest) == 0 || ind > sc.scalarIndent {
			return nil // a line of a block scalar
		}
		sc.scalarIndent = -1
	}
	if len(rest) == 0 || rest[0] == '#' {
		return nil
	}
	body := rest
	at := func(r []byte, i int) int { return ind + 1 + len(body) - len(r) + i } // column of r[i], r a tail of body
	depth := sc.flow
	if sc.flow == 0 {
		var err *Error
		if depth, rest, err = sc.block(ind, rest, at); err != nil {
			return err
		}
	}
	if depth > MaxDepth {
		return depthError(sc.file, sc.lineNo, at(rest, 0))
	}
	quote, err := sc.flowChars(rest, depth, at)
	if err != nil {
		return err
	}
	if sc.flow == 0 && quote == 0 && blockScalarStart(rest) {
		sc.scalarIndent = ind
	}
	return nil
}

// block counts a block line at indentation ind: its level, the key it is
// of its mapping, and the compact collections it opens. It returns the
// line's depth and what follows those collections' "- " and "? ".
func (sc *limitScanner) block(ind int, rest []byte, at func([]byte, int) int) (int, []byte, *Error) {
	for len(sc.indents) > 0 && sc.indents[len(sc.indents)-1] > ind {
		sc.indents, sc.keys = sc.indents[:len(sc.indents)-1], sc.keys[:len(sc.keys)-1]
	}
	if len(sc.indents) == 0 || sc.indents[len(sc.indents)-1] < ind {
		sc.indents, sc.keys = append(sc.indents, ind), append(sc.keys, 0)
	}
	// A line at a mapping's indentation that is no list item is one of
	// its keys.
	if rest[0] != '-' && rest[0] != '?' {
		if sc.keys[len(sc.keys)-1]++; sc.keys[len(sc.keys)-1] > MaxKeys {
			return 0, nil, keysError(sc.file, sc.lineNo, at(rest, 0))
		}
	}
	depth := len(sc.indents)
	// Compact collections: "- - x", "? - x", "- key: - x".
	for len(rest) >= 2 && (rest[0] == '-' || rest[0] == '?') && (rest[1] == ' ' || rest[1] == '\t') {
		depth++
		if depth > MaxDepth {
			return 0, nil, depthError(sc.file, sc.lineNo, at(rest, 0))
		}
		rest = bytes.TrimLeft(rest[2:], " \t")
	}
	return depth, rest, nil
}

// flowChars reads the rest of a line, at depth, outside quotes and
// comments: the flow collections it opens and closes and the keys of flow
// mappings. quote is the quote still open at its end, if any.
func (sc *limitScanner) flowChars(rest []byte, depth int, at func([]byte, int) int) (quote byte, err *Error) {
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				if quote == '\'' && i+1 < len(rest) && rest[i+1] == '\'' {
					i++ // '' inside single quotes
				} else {
					quote = 0
				}
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || rest[i-1] == ' ' || rest[i-1] == '\t'):
			i = len(rest)
		case c == '[' || c == '{':
			sc.flow++
			if depth+1 > MaxDepth {
				return quote, depthError(sc.file, sc.lineNo, at(rest, i))
			}
			depth++
			if c == '{' {
				sc.flowKeys = append(sc.flowKeys, 1)
			} else {
				sc.flowKeys = append(sc.flowKeys, -1)
			}
		case c == ']' || c == '}':
			if sc.flow > 0 {
				sc.flow--
				depth--
				sc.flowKeys = sc.flowKeys[:len(sc.flowKeys)-1]
			}
		case c == ',' && sc.flow > 0 && sc.flowKeys[len(sc.flowKeys)-1] >= 0:
			if sc.flowKeys[len(sc.flowKeys)-1]++; sc.flowKeys[len(sc.flowKeys)-1] > MaxKeys {
				return quote, keysError(sc.file, sc.lineNo, at(rest, i))
			}
		}
	}
	return quote, nil
}

func keysError(file string, line, col int) *Error {
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("a mapping of the config holds more than %d keys", MaxKeys)}
}

func depthError(file string, line, col int) *Error {
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("the config is nested deeper than %d levels", MaxDepth)}
}

// blockScalarStart reports whether a line ends with a block scalar's
// header ("key: |", "- >-", "|2"): the lines after it that are indented
// more are text.
func blockScalarStart(rest []byte) bool {
	if i := bytes.Index(rest, []byte(" #")); i >= 0 {
		rest = bytes.TrimRight(rest[:i], " \t")
	}
	j := len(rest)
	for j > 0 && (rest[j-1] == '-' || rest[j-1] == '+' || rest[j-1] >= '1' && rest[j-1] <= '9') {
		j--
	}
	if j == 0 || rest[j-1] != '|' && rest[j-1] != '>' {
		return false
	}
	return j == 1 || rest[j-2] == ' ' || rest[j-2] == '\t'
}
