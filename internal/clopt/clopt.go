// Package clopt parses command lines the way LLVM's cl::opt library does, so
// that sycbuild's in-process tools accept exactly the command lines of the
// DPC++ tools they replace.
//
// Conventions (LLVM's):
//   - an option is written with one or two dashes: -name or --name;
//   - a value is attached with '=' (-name=v) or, for options that take a
//     value, given as the next argument (-name v);
//   - a boolean option takes no value, or an explicit one with '='
//     (-f=true, -emit-reg-funcs=0);
//   - a list option may repeat; every occurrence keeps its position on the
//     command line (cl::list::getPosition), which tools use to sequence work;
//   - "--" ends the options: everything after it is positional;
//   - an argument @file is replaced by the arguments the file holds, in
//     GNU quoting, before anything is parsed (response files).
//
// Errors read as LLVM's do ("<tool>: Unknown command line argument '-x'.
// Try: '<tool> --help'"), followed by a "Did you mean" hint when one option
// is close.
package clopt

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/internal/suggest"
)

// Arg is one value given on the command line, with its position: the index
// of the argument in the argument list (not counting the program name).
type Arg struct {
	Value string
	Pos   int
}

// EnumValue is one accepted value of an enumerated option.
type EnumValue struct {
	Name string
	Help string
}

type kind int

const (
	kindBool kind = iota
	kindValue
	kindList
)

// Option describes one command-line option. Options are created through the
// Set's constructors; the exported fields may be adjusted afterwards.
type Option struct {
	Name      string
	ValueDesc string // e.g. "filename" for "-o <filename>"; "value" for enums
	Help      string
	Hidden    bool
	Category  string
	Enum      []EnumValue // accepted values; nil accepts any
	// EnumHidden lists accepted values not shown in --help (old spellings).
	EnumHidden []string

	kind    kind
	aliasOf *Option
	occurs  int
	boolV   *bool
	strV    *string
	listV   *[]Arg
}

// Set is the option set of one tool.
type Set struct {
	Tool     string // name used in messages (argv[0]'s base name)
	Overview string // text after "OVERVIEW: "
	Usage    string // text after "USAGE: <tool> "
	Version  string // printed by --version
	// Category is the category name new options get by default.
	Category string
	// MaxPositional, when > 0, limits the number of positional arguments.
	MaxPositional int

	opts       []*Option
	byName     map[string]*Option
	positional []Arg
	all        []Arg          // every option occurrence and positional, in order
	occName    map[int]string // position -> canonical option name
}

// New returns an empty option set for tool.
func New(tool, overview, usage string) *Set {
	return &Set{Tool: tool, Overview: overview, Usage: usage, Category: tool + " options", byName: map[string]*Option{}}
}

func (s *Set) add(o *Option) *Option {
	if _, dup := s.byName[o.Name]; dup {
		panic("clopt: option defined twice: " + o.Name)
	}
	if o.Category == "" {
		o.Category = s.Category
	}
	s.opts = append(s.opts, o)
	s.byName[o.Name] = o
	return o
}

// Bool defines a boolean flag.
func (s *Set) Bool(name, help string) *bool {
	v := new(bool)
	s.add(&Option{Name: name, Help: help, kind: kindBool, boolV: v})
	return v
}

// BoolDefault defines a boolean flag with a default value; it accepts
// -name=0 / -name=false to turn it off.
func (s *Set) BoolDefault(name string, def bool, help string) *bool {
	v := new(bool)
	*v = def
	s.add(&Option{Name: name, Help: help, kind: kindBool, boolV: v})
	return v
}

// String defines an option taking one value. Giving it twice is an error, as
// for a cl::opt.
func (s *Set) String(name, valueDesc, def, help string) *string {
	v := new(string)
	*v = def
	s.add(&Option{Name: name, ValueDesc: valueDesc, Help: help, kind: kindValue, strV: v})
	return v
}

// Enum defines an option whose value must be one of values (or of hidden,
// accepted but not listed in --help).
func (s *Set) Enum(name string, def string, help string, values []EnumValue, hidden ...string) *string {
	v := new(string)
	*v = def
	s.add(&Option{Name: name, ValueDesc: "value", Help: help, kind: kindValue, strV: v, Enum: values, EnumHidden: hidden})
	return v
}

// List defines a repeatable option; every occurrence is kept with its
// position.
func (s *Set) List(name, valueDesc, help string) *[]Arg {
	v := new([]Arg)
	s.add(&Option{Name: name, ValueDesc: valueDesc, Help: help, kind: kindList, listV: v})
	return v
}

// Alias makes alias a second name of the option name.
func (s *Set) Alias(alias, name string) {
	target := s.byName[name]
	if target == nil {
		panic("clopt: alias of unknown option " + name)
	}
	s.add(&Option{Name: alias, Hidden: true, aliasOf: target, kind: target.kind})
}

// Lookup returns the option called name, or nil.
func (s *Set) Lookup(name string) *Option { return s.byName[name] }

// Given reports whether the option called name occurred on the command line.
func (s *Set) Given(name string) bool {
	o := s.byName[name]
	return o != nil && o.occurs > 0
}

// Positional returns the positional arguments, in order, with positions.
func (s *Set) Positional() []Arg { return s.positional }

// PositionalValues returns the positional arguments' values.
func (s *Set) PositionalValues() []string {
	out := make([]string, len(s.positional))
	for i, a := range s.positional {
		out[i] = a.Value
	}
	return out
}

// Occurrences returns every option occurrence and positional argument in
// command-line order. Option occurrences carry the option name in Name.
func (s *Set) Occurrences() []Occurrence {
	out := make([]Occurrence, 0, len(s.all))
	for _, a := range s.all {
		out = append(out, Occurrence{Name: s.occName[a.Pos], Arg: a})
	}
	return out
}

// Occurrence is one item of the command line: an option (Name set, the
// canonical name even when an alias was used) or a positional (Name "").
type Occurrence struct {
	Name string
	Arg
}

// Error is a command-line error, already worded as LLVM words it.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// ErrHelp is returned by Parse after it printed --help or --version output;
// the tool should exit 0.
var ErrHelp = &Error{Msg: "help requested"}

// Parse parses args (without the program name). On --help/--version it
// writes to out and returns ErrHelp.
func (s *Set) Parse(args []string, out io.Writer) error {
	args, err := ExpandResponseFiles(s.Tool, args)
	if err != nil {
		return err
	}
	s.occName = map[int]string{}
	onlyPositional := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if onlyPositional || len(a) < 2 || a[0] != '-' { // "-" is positional (stdin)
			s.positional = append(s.positional, Arg{a, i})
			s.all = append(s.all, Arg{a, i})
			continue
		}
		if a == "--" {
			onlyPositional = true
			continue
		}
		body := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, val, hasVal := strings.Cut(body, "=")
		switch name {
		case "help", "help-hidden", "help-list", "help-list-hidden":
			s.PrintHelp(out, strings.HasSuffix(name, "hidden"))
			return ErrHelp
		case "version":
			fmt.Fprintf(out, "%s\n", s.versionText())
			return ErrHelp
		}
		o := s.byName[name]
		if o == nil {
			return s.unknown(a, name)
		}
		canon := o
		if o.aliasOf != nil {
			canon = o.aliasOf
		}
		switch canon.kind {
		case kindBool:
			b := true
			if hasVal {
				var err error
				b, err = parseBool(val)
				if err != nil {
					return s.errorf(canon, "'%s' is invalid value for boolean argument! Try 0 or 1", val)
				}
			}
			*canon.boolV = b
		default:
			if !hasVal {
				if i+1 >= len(args) {
					return s.errorf(canon, "requires a value!")
				}
				i++
				val = args[i]
			}
			if canon.Enum != nil && !canon.accepts(val) {
				return s.errorf(canon, "Cannot find option named '%s'!", val)
			}
			if canon.kind == kindValue {
				if canon.occurs > 0 {
					return s.errorf(canon, "may only occur zero or one times!")
				}
				*canon.strV = val
			} else {
				*canon.listV = append(*canon.listV, Arg{val, i})
			}
		}
		canon.occurs++
		s.occName[i] = canon.Name
		s.all = append(s.all, Arg{val, i})
	}
	if s.MaxPositional > 0 && len(s.positional) > s.MaxPositional {
		return &Error{Msg: fmt.Sprintf("%s: Too many positional arguments specified!\nCan specify at most %d positional arguments: See: %s --help", s.Tool, s.MaxPositional, s.Tool)}
	}
	return nil
}

func (o *Option) accepts(v string) bool {
	for _, e := range o.Enum {
		if e.Name == v {
			return true
		}
	}
	for _, h := range o.EnumHidden {
		if h == v {
			return true
		}
	}
	return false
}

func parseBool(v string) (bool, error) {
	switch v {
	case "", "true", "TRUE", "True", "1":
		return true, nil
	case "false", "FALSE", "False", "0":
		return false, nil
	}
	return false, strconv.ErrSyntax
}

func dashes(name string) string {
	if len(name) == 1 {
		return "-"
	}
	return "--"
}

func (s *Set) errorf(o *Option, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf("%s: for the %s%s option: %s", s.Tool, dashes(o.Name), o.Name, fmt.Sprintf(format, args...))}
}

func (s *Set) unknown(arg, name string) error {
	msg := fmt.Sprintf("%s: Unknown command line argument '%s'.  Try: '%s --help'", s.Tool, arg, s.Tool)
	if near := s.nearest(name); near != "" {
		msg += fmt.Sprintf("\n%s: Did you mean '%s%s'?", s.Tool, dashes(near), near)
	}
	return &Error{Msg: msg}
}

// nearest returns the visible option name closest to name, if it is close
// enough to be a plausible typo.
func (s *Set) nearest(name string) string {
	var names []string
	for _, o := range s.opts {
		if !o.Hidden {
			names = append(names, o.Name)
		}
	}
	sort.Strings(names) // ties go to the first name in order
	return suggest.Closest(name, names)
}

func (s *Set) versionText() string {
	if s.Version != "" {
		return s.Version
	}
	return s.Tool + " (sycbuild)"
}

// label is the option as --help shows it: "--name=<value>", "-o <filename>".
func (o *Option) label() string {
	l := dashes(o.Name) + o.Name
	if o.ValueDesc != "" {
		if len(o.Name) == 1 {
			l += " <" + o.ValueDesc + ">"
		} else {
			l += "=<" + o.ValueDesc + ">"
		}
	}
	return l
}

var generic = []*Option{
	{Name: "help", Help: "Display available options (--help-hidden for more)", Category: "Generic Options"},
	{Name: "help-list", Help: "Display list of available options (--help-list-hidden for more)", Category: "Generic Options"},
	{Name: "version", Help: "Display the version of this program", Category: "Generic Options"},
}

// PrintHelp writes LLVM-style --help output: overview, usage, then each
// category's options sorted by name, values of enumerated options indented
// below them.
func (s *Set) PrintHelp(w io.Writer, hidden bool) {
	if s.Overview != "" {
		fmt.Fprintf(w, "OVERVIEW: %s\n\n", s.Overview)
	}
	fmt.Fprintf(w, "USAGE: %s %s\n\nOPTIONS:\n", s.Tool, s.Usage)
	byCat := map[string][]*Option{}
	width := 0
	for _, o := range append(append([]*Option{}, generic...), s.opts...) {
		if o.aliasOf != nil || (o.Hidden && !hidden) {
			continue
		}
		byCat[o.Category] = append(byCat[o.Category], o)
		width = max(width, len(o.label()))
		for _, e := range o.Enum {
			width = max(width, len(e.Name)+3)
		}
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		fmt.Fprintf(w, "\n%s:\n\n", c)
		opts := byCat[c]
		sort.SliceStable(opts, func(i, j int) bool { return opts[i].Name < opts[j].Name })
		// Continuation lines of a help text line up with its first line.
		cont := "\n" + strings.Repeat(" ", 2+width+3)
		for _, o := range opts {
			fmt.Fprintf(w, "  %-*s - %s\n", width, o.label(), strings.ReplaceAll(o.Help, "\n", cont))
			for _, e := range o.Enum {
				fmt.Fprintf(w, "    %-*s -   %s\n", width-2, "="+e.Name, e.Help)
			}
		}
	}
}

// Stdio is the standard streams an in-process tool uses.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main is the entry point of an in-process tool: argv0 is the name the tool
// uses in its messages, args the arguments after it. It returns the exit
// status.
type Main func(argv0 string, args []string, stdio Stdio) int

// Report writes err to w the way a tool reports a command-line error and
// returns the exit status to use: 0 after --help/--version, 1 otherwise.
func Report(w io.Writer, err error) int {
	if err == ErrHelp {
		return 0
	}
	fmt.Fprintln(w, err.Error())
	return 1
}
