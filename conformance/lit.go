package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
)

// RunLine is one RUN command of a lit test, continuation lines joined.
type RunLine struct {
	Line int    // 1-based line of the first "RUN:" of the command
	Text string // the command as written, before substitution
}

// Script is what the runner needs from a lit test file.
type Script struct {
	Runs        []RunLine
	Requires    []string // boolean expressions; all must hold
	Unsupported []string // boolean expressions; any true makes the test unsupported
	XFail       []string // boolean expressions or "*"; any true makes failure expected
}

// ParseScript reads the directives of a lit test: "RUN:" lines (after any
// comment leader such as "; " or "// ", continued by a trailing '\'), and
// REQUIRES:, UNSUPPORTED:, XFAIL: lists.
func ParseScript(name string, data []byte) (*Script, error) {
	s := &Script{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	var cont *RunLine // the command a trailing '\' continues
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		kw, rest, ok := directive(line)
		if cont != nil {
			if !ok || kw != "RUN:" {
				return nil, fmt.Errorf("%s:%d: a RUN line ends in '\\' but the next line is not a RUN line", name, n)
			}
			cont.Text += rest
		} else if !ok {
			continue
		}
		switch kw {
		case "RUN:":
			if cont == nil {
				s.Runs = append(s.Runs, RunLine{Line: n, Text: rest})
				cont = &s.Runs[len(s.Runs)-1]
			}
			if strings.HasSuffix(cont.Text, "\\") {
				cont.Text = strings.TrimSuffix(cont.Text, "\\")
			} else {
				cont.Text = strings.TrimSpace(cont.Text)
				cont = nil
			}
		case "REQUIRES:":
			s.Requires = append(s.Requires, splitList(rest)...)
		case "UNSUPPORTED:":
			s.Unsupported = append(s.Unsupported, splitList(rest)...)
		case "XFAIL:":
			s.XFail = append(s.XFail, splitList(rest)...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if cont != nil {
		return nil, fmt.Errorf("%s:%d: the last RUN line ends in '\\'", name, cont.Line)
	}
	return s, nil
}

var keywords = []string{"RUN:", "REQUIRES:", "UNSUPPORTED:", "XFAIL:"}

// directive finds the first lit keyword in line that is not part of a longer
// word (so "CHECK-RUN:" is not a RUN line) and returns the text after it.
func directive(line string) (kw, rest string, ok bool) {
	best := -1
	for _, k := range keywords {
		for from := 0; ; {
			i := strings.Index(line[from:], k)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || !isWordByte(line[i-1]) {
				if best < 0 || i < best {
					best, kw = i, k
				}
				break
			}
			from = i + 1
		}
	}
	if best < 0 {
		return "", "", false
	}
	return kw, line[best+len(kw):], true
}

func isWordByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Paths are the values of lit's path substitutions for one test.
type Paths struct {
	Source string // %s: the test file
	Tmp    string // %t: the test's temporary path prefix (Output/<name>.tmp)
}

// Substitute expands lit's substitutions in a RUN command: %s %S %p %t %T,
// their %/… forms (the same on POSIX systems), %{pathsep}, %% and the
// extra ones given (e.g. "%clang"). At each '%' the longest name wins; an
// unknown one is left as it is.
func Substitute(cmd string, p Paths, extra map[string]string) string {
	dir := func(f string) string {
		if i := strings.LastIndexByte(f, '/'); i >= 0 {
			return f[:i]
		}
		return "."
	}
	subs := map[string]string{
		"%s": p.Source, "%S": dir(p.Source), "%p": dir(p.Source),
		"%t": p.Tmp, "%T": dir(p.Tmp),
		"%/s": p.Source, "%/S": dir(p.Source), "%/p": dir(p.Source),
		"%/t": p.Tmp, "%/T": dir(p.Tmp),
		"%{pathsep}": ":", "%%": "%",
	}
	for k, v := range extra {
		subs[k] = v
	}
	names := make([]string, 0, len(subs))
	for k := range subs {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	var b strings.Builder
	for i := 0; i < len(cmd); {
		if cmd[i] == '%' {
			matched := false
			for _, k := range names {
				if strings.HasPrefix(cmd[i:], k) {
					b.WriteString(subs[k])
					i += len(k)
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		b.WriteByte(cmd[i])
		i++
	}
	return b.String()
}

// readScript reads and parses a test file.
func readScript(path, name string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseScript(name, data)
}

// ExpandIf expands lit's conditional substitution in a RUN command:
// "%if expr %{ then %}", optionally followed by "%else %{ otherwise %}",
// becomes the text of the branch the features choose (lit's "asserts",
// for one, is a feature of LLVM builds with assertions, which sycbuild
// is not, so a command under "%if asserts" is dropped).
func ExpandIf(cmd string, have map[string]bool) (string, error) {
	for {
		i := strings.Index(cmd, "%if ")
		if i < 0 {
			return cmd, nil
		}
		open := strings.Index(cmd[i:], "%{")
		if open < 0 {
			return "", fmt.Errorf("%%if without %%{ in %q", cmd)
		}
		open += i
		v, err := EvalFeatures(strings.TrimSpace(cmd[i+len("%if "):open]), have)
		if err != nil {
			return "", fmt.Errorf("%%if: %v", err)
		}
		then, end, err := ifBranch(cmd, open)
		if err != nil {
			return "", err
		}
		var other string
		if rest := strings.TrimLeft(cmd[end:], " \t"); strings.HasPrefix(rest, "%else") {
			rest = strings.TrimLeft(rest[len("%else"):], " \t")
			if !strings.HasPrefix(rest, "%{") {
				return "", fmt.Errorf("%%else without %%{ in %q", cmd)
			}
			at := len(cmd) - len(rest)
			other, end, err = ifBranch(cmd, at)
			if err != nil {
				return "", err
			}
		}
		chosen := other
		if v {
			chosen = then
		}
		cmd = cmd[:i] + strings.TrimSpace(chosen) + cmd[end:]
	}
}

// ifBranch returns the text between the "%{" at open and its matching
// "%}", and the index just past the "%}".
func ifBranch(cmd string, open int) (string, int, error) {
	depth := 0
	for j := open; j+1 < len(cmd); j++ {
		switch cmd[j : j+2] {
		case "%{":
			depth++
			j++
		case "%}":
			depth--
			if depth == 0 {
				return cmd[open+2 : j], j + 2, nil
			}
			j++
		}
	}
	return "", 0, fmt.Errorf("%%{ without its %%} in %q", cmd)
}
