package graph

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// Sources returns the files the graph reads that no action writes, in the
// order they were first mentioned, each followed by the files it names
// when it is a list or table (read now, relative to dir like every path of
// the graph; "" is the working directory). Without repeats. These are what
// a build depends on besides its configuration, for a depfile.
func (g *Graph) Sources(dir string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, n := range g.order {
		if n.producer != nil || len(n.users) == 0 {
			continue
		}
		add(n.Path)
		if n.Kind == Plain {
			continue
		}
		named, err := namedFiles(dir, n.Path, n.Kind)
		if err != nil {
			return nil, err
		}
		for _, p := range named {
			add(p)
		}
	}
	return out, nil
}

// Depfile is a make-style dependency file, the kind gcc -MD writes and make
// (include) and ninja (depfile =) read: targets that depend on
// prerequisites.
type Depfile struct {
	Targets       []string
	Prerequisites []string
	// PhonyPrerequisites adds an empty rule for each prerequisite (as gcc
	// -MP does), so that make does not fail when one is deleted. Ninja
	// rejects such rules: they name outputs no build statement declares.
	PhonyPrerequisites bool
}

// WriteFile writes the depfile to path atomically (internal/atomicfile),
// so a reader never sees half of it.
func (d *Depfile) WriteFile(path string) error {
	text, err := d.text()
	if err != nil {
		return fmt.Errorf("depfile %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// text is the depfile's content: "t1 t2: \" then one prerequisite per
// continued line, and with PhonyPrerequisites an empty rule for each.
func (d *Depfile) text() (string, error) {
	if len(d.Targets) == 0 {
		return "", fmt.Errorf("no targets")
	}
	var b strings.Builder
	for i, t := range d.Targets {
		e, err := makeEscape(t)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e)
	}
	b.WriteByte(':')
	escaped := make([]string, len(d.Prerequisites))
	for i, p := range d.Prerequisites {
		e, err := makeEscape(p)
		if err != nil {
			return "", err
		}
		escaped[i] = e
		b.WriteString(" \\\n  ")
		b.WriteString(e)
	}
	b.WriteByte('\n')
	if d.PhonyPrerequisites {
		for _, e := range escaped {
			b.WriteString("\n" + e + ":\n")
		}
	}
	return b.String(), nil
}

// makeEscape quotes a path for a make rule the way gcc's depfiles do, which
// make and ninja both read back: '$' doubles; a space, tab or '#' gets a
// backslash, and so does each backslash right before it (make reads 2N+1
// backslashes before a space as N backslashes and a space). A line break
// cannot be written at all.
func makeEscape(p string) (string, error) {
	if strings.ContainsAny(p, "\n\r") {
		return "", fmt.Errorf("the file name %q holds a line break, which a depfile cannot express", p)
	}
	if !strings.ContainsAny(p, " \t#$") {
		return p, nil
	}
	var b strings.Builder
	backslashes := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case ' ', '\t', '#':
			b.WriteString(strings.Repeat(`\`, backslashes+1))
		case '$':
			b.WriteByte('$')
		}
		b.WriteByte(c)
		if c == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
	}
	return b.String(), nil
}
