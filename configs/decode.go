package configs

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/sycbuild/sycbuild/internal/suggest"
)

// decode parses data and fills c. Before goccy's strict decoder sees the
// tree, a walk over the AST checks its shape against the Go types of the
// schema: this reports every problem at once with its own position and
// wording, keeps strings as written (goccy would turn the device id 0x9a49
// into "39497"), and keeps malformed trees away from decoder paths that are
// known to panic (goccy/go-yaml issues 810 and 930).
func decode(file string, data []byte, c *Config) errorList {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return errorList{yamlError(file, err)}
	}
	var body ast.Node
	for i, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			p := nodePos(doc.Body)
			return errorList{{File: file, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf("only one YAML document is allowed (document %d)", i+1)}}
		}
		body = doc.Body
	}
	if body == nil {
		return errorList{{File: file, Line: 1, Col: 1, Msg: "empty config: expected a mapping with inputs: and targets:"}}
	}
	d := &walker{file: file, pos: positions{}}
	d.walk(body, reflect.TypeOf(c).Elem(), "", Pos{1, 1})
	if len(d.errs) > 0 {
		return d.errs
	}
	if err := safeNodeToValue(body, c); err != nil {
		return errorList{yamlError(file, err)}
	}
	c.pos = d.pos
	return nil
}

// safeNodeToValue runs goccy's strict decoder, turning a panic inside it into
// an error so that no input can crash sycbuild.
func safeNodeToValue(body ast.Node, c *Config) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot decode the config: %v", r)
		}
	}()
	return yaml.NodeToValue(body, c, yaml.Strict())
}

// yamlError converts one of goccy's errors (which carry a token) to ours.
func yamlError(file string, err error) *Error {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		msg := ye.GetMessage()
		// "mapping key "x" already defined at [1:1]" → "… at line 1".
		if i := strings.Index(msg, " at ["); i >= 0 && strings.HasSuffix(msg, "]") {
			if line, _, ok := strings.Cut(msg[i+5:len(msg)-1], ":"); ok {
				msg = msg[:i] + " at line " + line
			}
		}
		return &Error{File: file, Line: p.Line, Col: p.Column, Msg: msg}
	}
	return &Error{File: file, Line: 1, Col: 1, Msg: err.Error()}
}

// bigIntRE matches a plain decimal integer (which, too large for an int,
// the parser takes for a string).
var bigIntRE = regexp.MustCompile(`^[-+]?[0-9]+$`)

type walker struct {
	file string
	errs errorList
	pos  positions
}

func (w *walker) errorf(p Pos, format string, args ...any) {
	w.errs = append(w.errs, &Error{File: w.file, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)})
}

var argsType = reflect.TypeOf(Args(nil))

// walk checks that node has the shape of Go type t; path names the value in
// messages ("targets[1].devices"); at is the position to report when the
// node has none of its own (a key with no value).
func (w *walker) walk(node ast.Node, t reflect.Type, path string, at Pos) {
	node, ok := w.anchored(node, path)
	if !ok {
		return
	}
	p := at
	if node != nil && (node.Type() != ast.NullType || node.GetToken() != nil) {
		p = nodePos(node)
	}
	w.pos[path] = p
	if node == nil || node.Type() == ast.NullType {
		w.errorf(p, "%s: missing value (expected %s)", label(path), describeType(t))
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == argsType {
		if _, err := parseArgs(node); err != nil {
			w.errorf(p, "%s: %v", label(path), err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := node.(*ast.MappingNode)
		if !ok {
			w.typeError(node, t, path)
			return
		}
		w.walkStruct(m, t, path, p)
	case reflect.Map:
		m, ok := node.(*ast.MappingNode)
		if !ok {
			w.typeError(node, t, path)
			return
		}
		w.walkMap(m, t, path)
	case reflect.Slice:
		s, ok := node.(*ast.SequenceNode)
		if !ok {
			w.typeError(node, t, path)
			return
		}
		for i, v := range s.Values {
			w.walk(v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), p)
		}
	case reflect.String, reflect.Int, reflect.Bool:
		w.walkScalar(node, t, path, p)
	default:
		panic("configs: unsupported schema type " + t.String())
	}
}

// anchored is the node an anchor names, or node itself; it reports false,
// having said why, for an alias or a tag, which a config may not use.
func (w *walker) anchored(node ast.Node, path string) (ast.Node, bool) {
	switch n := node.(type) {
	case *ast.AnchorNode:
		return n.Value, true
	case *ast.AliasNode:
		w.errorf(nodePos(n), "%s: YAML aliases are not supported in a config", label(path))
		return nil, false
	case *ast.TagNode:
		w.errorf(nodePos(n), "%s: YAML tags (%s) are not supported in a config", label(path), n.Start.Value)
		return nil, false
	}
	return node, true
}

// walkMap checks each value of the mapping m against the map type t's
// element type, recording the position of each key.
func (w *walker) walkMap(m *ast.MappingNode, t reflect.Type, path string) {
	for _, mv := range m.Values {
		key, ok := w.key(mv, path)
		if ok {
			w.pos[join(path, key)+keySuffix] = nodePos(mv.Key)
			w.walk(mv.Value, t.Elem(), join(path, key), nodePos(mv.Key))
		}
	}
}

// walkScalar checks that the non-null node, at p, is a scalar of the
// string, int or bool type t.
func (w *walker) walkScalar(node ast.Node, t reflect.Type, path string, p Pos) {
	switch t.Kind() {
	case reflect.String:
		if !isString(node) {
			if sc, ok := node.(ast.ScalarNode); ok && node.Type() != ast.NullType {
				w.errorf(p, "%s: expected a string, got %s (write %q in quotes)", label(path), describeNode(node), sc.GetToken().Value)
				return
			}
			w.typeError(node, t, path)
		}
	case reflect.Int:
		if node.Type() != ast.IntegerType {
			// The parser makes a plain integer too large for 64 bits a
			// string: it is one, only too large.
			if tok := node.GetToken(); tok != nil && tok.Type == token.StringType && bigIntRE.MatchString(tok.Value) {
				w.errorf(p, "%s: %s is too large", label(path), tok.Value)
				return
			}
			w.typeError(node, t, path)
		}
	case reflect.Bool:
		if node.Type() != ast.BoolType {
			w.typeError(node, t, path)
		}
	}
}

func (w *walker) walkStruct(m *ast.MappingNode, t reflect.Type, path string, at Pos) {
	seen := map[string]bool{}
	for _, mv := range m.Values {
		key, ok := w.key(mv, path)
		if !ok {
			continue
		}
		f, ok := fieldByTag(t, key)
		if !ok {
			msg := fmt.Sprintf("unknown field %q", key)
			if s := suggest.Closest(key, tags(t)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			if path != "" {
				msg = path + ": " + msg
			}
			w.errorf(nodePos(mv.Key), "%s", msg)
			continue
		}
		seen[key] = true
		if f.Tag.Get("cfg") == "size" && mv.Value != nil && (mv.Value.Type() == ast.IntegerType || mv.Value.Type() == ast.FloatType) {
			// A size may be a bare number of bytes ("memory: 0"); the
			// decoder stores it as written.
			w.pos[join(path, key)] = nodePos(mv.Value)
			continue
		}
		w.walk(mv.Value, f.Type, join(path, key), nodePos(mv.Key))
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("cfg") == "required" && !seen[tagName(f)] {
			if path == "" {
				w.errorf(at, "missing required field %q", tagName(f))
			} else {
				w.errorf(at, "%s: missing required field %q", path, tagName(f))
			}
		}
	}
}

// key returns a mapping entry's key, which must be a plain string.
func (w *walker) key(mv *ast.MappingValueNode, path string) (string, bool) {
	if mv.Key == nil {
		w.errorf(nodePos(mv), "%s: mapping entry without a key", label(path))
		return "", false
	}
	k, ok := ast.Node(mv.Key).(*ast.StringNode)
	if !ok {
		w.errorf(nodePos(mv.Key), "%s: keys must be strings, got %s", label(path), describeNode(mv.Key))
		return "", false
	}
	return k.Value, true
}

func (w *walker) typeError(node ast.Node, t reflect.Type, path string) {
	w.errorf(nodePos(node), "%s: expected %s, got %s", label(path), describeType(t), describeNode(node))
}

func label(path string) string {
	if path == "" {
		return "config"
	}
	return path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func isString(n ast.Node) bool {
	t := n.Type()
	return t == ast.StringType || t == ast.LiteralType
}

func nodePos(n ast.Node) Pos {
	if m, ok := n.(*ast.MappingNode); ok && len(m.Values) > 0 && m.Values[0].Key != nil {
		// A block mapping's own token is its first ':'; point at its first key.
		n = m.Values[0].Key
	}
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return Pos{1, 1}
	}
	p := n.GetToken().Position
	return Pos{p.Line, p.Column}
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if n := tagName(f); n != "" && n != "-" && n == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tags(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if n := tagName(t.Field(i)); n != "" && n != "-" {
			out = append(out, n)
		}
	}
	return out
}

func describeType(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == argsType {
		return "a list of strings or a string"
	}
	switch t.Kind() {
	case reflect.Struct:
		return "a mapping"
	case reflect.Map:
		return "a mapping of " + plural(t.Elem())
	case reflect.Slice:
		return "a list of " + plural(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	}
	return t.String()
}

func plural(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == argsType {
		return "option lists"
	}
	switch t.Kind() {
	case reflect.Struct:
		return "mappings"
	case reflect.String:
		return "strings"
	case reflect.Slice:
		return "lists"
	}
	return describeType(t)
}

func describeNode(n ast.Node) string {
	switch n.Type() {
	case ast.StringType, ast.LiteralType:
		return "a string"
	case ast.IntegerType:
		return "an integer"
	case ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "a boolean"
	case ast.NullType:
		return "null"
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	}
	return strings.ToLower(n.Type().String())
}

// positions maps value paths to where they are in the file; a path with
// keySuffix is where the key of a mapping entry is.
type positions map[string]Pos

const keySuffix = "@key"

func (ps positions) lookup(path string) Pos {
	for {
		if p, ok := ps[path]; ok {
			return p
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			if p, ok := ps[""]; ok {
				return p
			}
			return Pos{1, 1}
		}
		path = path[:i]
	}
}
