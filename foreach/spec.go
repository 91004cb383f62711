package foreach

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// ReadList reads a file list: one item per line, "\n" or "\r\n" line ends,
// blank lines skipped (as LLVM's line_iterator does).
func ReadList(r io.Reader) ([]string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var items []string
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
			line = bytes.TrimSuffix(line, []byte{'\r'})
		} else {
			data = nil
		}
		if len(line) > 0 {
			items = append(items, string(line))
		}
	}
	return items, nil
}

// ReadListFile reads the file list in the file called name.
func ReadListFile(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadList(f)
}

// segment is a piece of an argument template: literal text, or a
// placeholder (list index, or outputRef).
type segment struct {
	text string
	ref  int // -1: literal; 0..n-1: list; outputRef: the output file
}

const outputRef = -2

// plan is a compiled Spec: per-argument templates and the job count.
type plan struct {
	spec  *Spec
	args  [][]segment // templates of Command[1:]
	incr  []bool      // which arguments get the _j suffix
	jobs  int
	stem  string
	ext   string // ".out", or "" for no extension
	lists []List
}

// compile checks the spec and turns its arguments into templates.
func (s *Spec) compile() (*plan, error) {
	if len(s.Command) == 0 {
		return nil, errors.New("no command given")
	}
	if len(s.Lists) == 0 {
		return nil, errors.New("no input file list given")
	}
	type pattern struct {
		text string
		ref  int
	}
	var pats []pattern
	for i, l := range s.Lists {
		if l.Replace == "" {
			return nil, fmt.Errorf("the placeholder of input file list %d (%s) is empty", i+1, l.Name)
		}
		pats = append(pats, pattern{l.Replace, i})
	}
	if s.OutReplace != "" {
		pats = append(pats, pattern{s.OutReplace, outputRef})
	}
	p := &plan{spec: s, lists: s.Lists, jobs: len(s.Lists[0].Items)}
	used := make(map[int]bool)
	for _, arg := range s.Command[1:] {
		var segs []segment
		lit := 0
		for i := 0; i < len(arg); {
			best := -1
			for k, pt := range pats { // the longest placeholder starting here wins
				if strings.HasPrefix(arg[i:], pt.text) && (best < 0 || len(pt.text) > len(pats[best].text)) {
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
			segs = append(segs, segment{"", pats[best].ref})
			used[pats[best].ref] = true
			i += len(pats[best].text)
			lit = i
		}
		if lit < len(arg) || len(segs) == 0 {
			segs = append(segs, segment{arg[lit:], -1})
		}
		p.args = append(p.args, segs)
		p.incr = append(p.incr, s.OutIncrement != "" && strings.Contains(arg, s.OutIncrement))
	}
	for i, l := range s.Lists {
		if !used[i] {
			return nil, fmt.Errorf("the placeholder '%s' of input file list %s occurs in no argument of the command", l.Replace, l.Name)
		}
		if len(l.Items) != p.jobs {
			return nil, fmt.Errorf("All input file lists must have same number of lines! (%s has %d, %s has %d)", s.Lists[0].Name, p.jobs, l.Name, len(l.Items))
		}
	}
	if s.OutReplace != "" {
		if !used[outputRef] {
			return nil, errors.New("Couldn't find replace string for output in the command.")
		}
		base := filepath.Base(s.OutReplace)
		switch base { // as LLVM's sys::path::stem
		case ".", "..":
			p.stem = base
		case string(filepath.Separator):
			p.stem = ""
		default:
			p.stem = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if s.OutExt != "" {
			p.ext = "." + s.OutExt
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
	out := make([]string, len(p.args))
	var b strings.Builder
	for i, segs := range p.args {
		b.Reset()
		for _, sg := range segs {
			switch sg.ref {
			case -1:
				b.WriteString(sg.text)
			case outputRef:
				b.WriteString(output)
			default:
				b.WriteString(p.lists[sg.ref].Items[j])
			}
		}
		if p.incr[i] && j > 0 {
			fmt.Fprintf(&b, "_%d", j)
		}
		out[i] = b.String()
		if len(segs) == 1 && segs[0].ref != -1 && strings.HasPrefix(out[i], "-") {
			// A whole argument that is a file: "./-x", so that the
			// command does not take the file for an option.
			out[i] = "./" + out[i]
		}
	}
	return out
}

// deterministicOutput is job j's output name in deterministic mode.
func (p *plan) deterministicOutput(j int) string {
	return filepath.Join(p.spec.OutDir, fmt.Sprintf("%s_%d%s", p.stem, j, p.ext))
}
