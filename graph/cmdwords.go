package graph

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sycbuild/sycbuild/internal/atomicfile"
)

// The build log keeps a hash of each command line, which says that a
// command changed but not how. So that -explain (and the report) can say
// which words changed, the state directory also keeps the words of the
// actions' command lines and of the fan-outs' templates (a few dozen lines
// however many modules there are: a job's words are its template's with
// its files'), in the file "commands".

// commandWords are the last command lines of the actions and fan-outs, by
// record name.
type commandWords struct {
	file  string
	mu    sync.Mutex
	words map[string][]string
	dirty bool
}

// loadCommandWords reads the words kept in dir ("" keeps none).
func loadCommandWords(dir string) *commandWords {
	c := &commandWords{words: map[string][]string{}}
	if dir == "" {
		return c
	}
	c.file = filepath.Join(dir, "commands")
	f, err := os.Open(c.file)
	if err != nil {
		return c
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "\t")
		if ok {
			c.words[name] = strings.Split(rest, "\x1f")
		}
	}
	return c
}

// set remembers name's command words.
func (c *commandWords) set(name string, words []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.words[name]; ok && strings.Join(old, "\x1f") == strings.Join(words, "\x1f") {
		return
	}
	c.words[name] = words
	c.dirty = true
}

func (c *commandWords) get(name string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.words[name]
}

// save writes the words back when they changed. A word holding a line
// break or the separator cannot be kept; its command is left out.
func (c *commandWords) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file == "" || !c.dirty {
		return nil
	}
	return atomicfile.Write(c.file, func(w io.Writer) error {
		for _, name := range slices.Sorted(maps.Keys(c.words)) {
			line := strings.Join(c.words[name], "\x1f")
			if strings.ContainsAny(name+line, "\n\t") {
				continue
			}
			if _, err := fmt.Fprintf(w, "%s\t%s\n", name, line); err != nil {
				return err
			}
		}
		return nil
	})
}

// changedWords says which words of a command line changed, as the hunks
// of a word diff: `-device "pvc,acm-g10" → "pvc"`, `added "-O3"`,
// `removed "-q"`; at most three, then "…". Commands are separated by
// "\x00" words, which show as "|".
func changedWords(old, cur []string) string {
	// The longest common subsequence of words, by dynamic programming:
	// command lines hold tens or hundreds of words.
	n, m := len(old), len(cur)
	if n*m > 1<<22 {
		return ""
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if old[i] == cur[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var hunks []string
	var del, add []string
	prev := "" // the last equal word, for context
	flush := func() {
		if len(del) == 0 && len(add) == 0 {
			return
		}
		ctx := ""
		if strings.HasPrefix(prev, "-") {
			ctx = prev + " "
		}
		switch {
		case len(del) > 0 && len(add) > 0:
			hunks = append(hunks, fmt.Sprintf("%s%s → %s", ctx, quoteWords(del), quoteWords(add)))
		case len(add) > 0:
			hunks = append(hunks, fmt.Sprintf("added %s%s", ctx, quoteWords(add)))
		default:
			hunks = append(hunks, fmt.Sprintf("removed %s%s", ctx, quoteWords(del)))
		}
		del, add = nil, nil
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && old[i] == cur[j]:
			flush()
			prev = old[i]
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			add = append(add, cur[j])
			j++
		default:
			del = append(del, old[i])
			i++
		}
	}
	flush()
	if len(hunks) > 3 {
		hunks = append(hunks[:3], "…")
	}
	return strings.Join(hunks, ", ")
}

func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w == "\x00" {
			w = "|"
		}
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, " ")
}

// templateChanged is what changed in fan-out a's template since its last
// build ("" when nothing did, or its words were not kept), worked out
// once per build: every job of a says it.
func (b *builder) templateChanged(a *Action) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d, ok := b.templateDiffs[a]; ok {
		return d
	}
	d := ""
	if old := b.cmds.get(a.Out[0].Path); old != nil {
		_, argvs := a.Fanout.template()
		var cur []string
		for _, argv := range argvs {
			cur = append(append(cur, argv...), "\x00")
		}
		d = changedWords(old, cur)
	}
	if b.templateDiffs == nil {
		b.templateDiffs = map[*Action]string{}
	}
	b.templateDiffs[a] = d
	return d
}
