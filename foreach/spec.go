package foreach

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// List is one input file list with its placeholder.
type List struct {
	Replace string   // the placeholder (--in-replace)
	Items   []string // the list's lines
	Name    string   // where the items came from, for messages
}

// Spec is one foreach run.
type Spec struct {
	// Command is the program and its arguments; the program is looked up on
	// PATH unless it holds a '/'. Placeholders are replaced in the
	// arguments, never in the program.
	Command []string
	Lists   []List
	// OutReplace is the output placeholder; each job gets a new output file
	// in its place. The file name's stem is OutReplace's.
	OutReplace string
	OutDir     string // directory of the outputs; "" is the system's temporary directory
	OutExt     string // extension of the outputs, without the dot ("" for none)
	// OutIncrement: an argument holding it gets "_<j>" appended in job j > 0.
	OutIncrement string
	// OutFileList, if set, receives the output paths, one per line, in list
	// order.
	OutFileList string
	// Deterministic names the outputs <OutDir>/<stem>_<j>.<OutExt>.
	Deterministic bool
}

// Template is a command's arguments with their placeholders found, by
// llvm-foreach's rules: every occurrence of a placeholder is replaced, and
// where several placeholders start at the same byte the longest wins. An
// argument that is wholly one placeholder standing for a file whose name
// starts with '-' becomes "./-…", so that the command does not take the
// file for an option.
type Template struct {
	args [][]segment
	used []bool // per placeholder: it occurs in some argument
}

// segment is a piece of an argument: literal text, or placeholder ref.
type segment struct {
	text string
	ref  int // -1: literal; else the placeholder's index
}

// NewTemplate finds the placeholders in args.
func NewTemplate(args, placeholders []string) *Template {
	t := &Template{used: make([]bool, len(placeholders))}
	for _, arg := range args {
		var segs []segment
		lit := 0
		for i := 0; i < len(arg); {
			best := -1
			for k, ph := range placeholders {
				if ph != "" && strings.HasPrefix(arg[i:], ph) && (best < 0 || len(ph) > len(placeholders[best])) {
					best = k
				}
			}
			if best < 0 {
				i++
				continue
			}
			if lit < i {
				segs = append(segs, segment{arg[lit:i], -1})
			}
			segs = append(segs, segment{"", best})
			t.used[best] = true
			i += len(placeholders[best])
			lit = i
		}
		if lit < len(arg) || len(segs) == 0 {
			segs = append(segs, segment{arg[lit:], -1})
		}
		t.args = append(t.args, segs)
	}
	return t
}

// Uses reports whether placeholder k occurs in some argument.
func (t *Template) Uses(k int) bool { return t.used[k] }

// Expand returns the arguments with placeholder k replaced by values[k].
func (t *Template) Expand(values []string) []string {
	out := make([]string, len(t.args))
	var b strings.Builder
	for i, segs := range t.args {
		if len(segs) == 1 {
			if segs[0].ref < 0 {
				out[i] = segs[0].text
			} else if v := values[segs[0].ref]; strings.HasPrefix(v, "-") {
				out[i] = "./" + v
			} else {
				out[i] = v
			}
			continue
		}
		b.Reset()
		for _, sg := range segs {
			if sg.ref < 0 {
				b.WriteString(sg.text)
			} else {
				b.WriteString(values[sg.ref])
			}
		}
		out[i] = b.String()
	}
	return out
}

// OutputName is job j's output file in deterministic mode:
// <dir>/<stem>_<j>.<ext>, where stem is the output placeholder's file stem
// and ext may be "" (no extension).
// CheckExt refuses an output extension that would put an output outside
// its directory, in every mode: one with a path separator or "..".
func CheckExt(ext string) error {
	if strings.ContainsRune(ext, '/') || strings.ContainsRune(ext, filepath.Separator) || strings.Contains(ext, "..") {
		return fmt.Errorf("the output extension '%s' holds '/' or '..': an output would leave its directory", ext)
	}
	return nil
}

func OutputName(dir, outReplace, ext string, j int) string {
	name := Stem(outReplace) + "_" + strconv.Itoa(j)
	if ext != "" {
		name += "." + ext
	}
	return filepath.Join(dir, name)
}

// Stem is a file name without directory and extension, as LLVM's
// sys::path::stem.
func Stem(p string) string {
	base := filepath.Base(p)
	switch base {
	case ".", "..":
		return base
	case string(filepath.Separator):
		return ""
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// plan is a compiled Spec: its argument template and the job count.
type plan struct {
	spec *Spec
	tmpl *Template
	incr []bool // which arguments get the _j suffix
	jobs int
}

// compile checks the spec and finds the placeholders in its arguments.
func (s *Spec) compile() (*plan, error) {
	if len(s.Command) == 0 {
		return nil, errors.New("no command given")
	}
	if len(s.Lists) == 0 {
		return nil, errors.New("no input file list given")
	}
	if err := CheckExt(s.OutExt); err != nil {
		return nil, err
	}
	var phs []string
	for i, l := range s.Lists {
		if l.Replace == "" {
			return nil, fmt.Errorf("the placeholder of input file list %d (%s) is empty", i+1, l.Name)
		}
		phs = append(phs, l.Replace)
	}
	phs = append(phs, s.OutReplace) // "" never matches
	p := &plan{spec: s, tmpl: NewTemplate(s.Command[1:], phs), jobs: len(s.Lists[0].Items)}
	for _, arg := range s.Command[1:] {
		p.incr = append(p.incr, s.OutIncrement != "" && strings.Contains(arg, s.OutIncrement))
	}
	for i, l := range s.Lists {
		if !p.tmpl.Uses(i) {
			return nil, fmt.Errorf("the placeholder '%s' of input file list %s occurs in no argument of the command", l.Replace, l.Name)
		}
		if len(l.Items) != p.jobs {
			return nil, fmt.Errorf("All input file lists must have same number of lines! (%s has %d, %s has %d)", s.Lists[0].Name, p.jobs, l.Name, len(l.Items))
		}
	}
	if s.OutReplace != "" {
		if !p.tmpl.Uses(len(s.Lists)) {
			return nil, errors.New("Couldn't find replace string for output in the command.")
		}
		if s.Deterministic && s.OutDir == "" {
			return nil, errors.New("deterministic output names need an output directory (--out-dir)")
		}
	}
	return p, nil
}

// command returns job j's arguments (without the program) given its output
// file.
func (p *plan) command(j int, output string) []string {
	values := make([]string, 0, len(p.spec.Lists)+1)
	for _, l := range p.spec.Lists {
		values = append(values, l.Items[j])
	}
	out := p.tmpl.Expand(append(values, output))
	for i, incr := range p.incr {
		if incr && j > 0 {
			out[i] += fmt.Sprintf("_%d", j)
		}
	}
	return out
}

// deterministicOutput is job j's output name in deterministic mode.
func (p *plan) deterministicOutput(j int) string {
	return OutputName(p.spec.OutDir, p.spec.OutReplace, p.spec.OutExt, j)
}
