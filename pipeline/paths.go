package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Written is a file the build writes besides the output object (a
// depfile, a trace), for the checks of Options.Written.
type Written struct {
	Path  string // relative to the config's directory, or absolute
	Shown string // the path as the user wrote it ("" is Path)
	Where string // where it was asked for: "command line: -M"

	// field is the config's field that names the file ("output"), when
	// the config file does: Where then completes its position.
	field string
}

// owned is a path the build writes itself: a file, or a directory and
// everything below it.
type owned struct {
	path string // absolute
	dir  bool
	what string // "the linked module", "the work directory of target spir64"
}

// checkPaths checks every path the build writes against every path it
// reads or owns, before anything is planned: the output, the depfile and
// the trace must not be the config, an input, each other, a file or
// directory the build writes itself (the linked module, a target's work
// directory, the state directory) or an existing directory; no input may
// be one of the build's own files. Each problem is reported where the path
// was given.
func (p *planner) checkPaths() error {
	bd := p.cfg.BuildDir
	c := &pathCheck{p: p}
	c.own = []owned{
		{c.abs(filepath.Join(bd, StateDirName)), true, "the state directory of the build"},
		{c.abs(filepath.Join(bd, "linked.ll")), false, "the linked module the build writes"},
	}
	for _, t := range p.cfg.Targets {
		c.own = append(c.own, owned{c.abs(filepath.Join(bd, t.Name)), true, "the work directory of target " + t.Name})
	}
	if p.opt.ConfigFile != "" {
		c.reads = append(c.reads, read{c.abs(p.opt.ConfigFile), "the config file"})
	}
	c.inputs()
	if a := c.abs(filepath.Join(bd, "linked.ll")); c.ownedBy(a) != "the linked module the build writes" {
		// A target named linked.ll: its directory would be the linked module.
		for _, t := range p.cfg.Targets {
			if t.Name == "linked.ll" {
				c.errs = append(c.errs, p.cfg.NameLoc(t).Errorf("target name %q is the file %s the build links the inputs into", t.Name, filepath.Join(bd, "linked.ll")))
			}
		}
	}
	out := Written{Path: p.cfg.Output, Where: "output", field: "output"}
	if flag := p.cfg.Field("output").Flag(); flag != "" {
		out.Where, out.field = "command line: "+flag, ""
	} else if !p.cfg.Field("output").Given() {
		out.Where += " (the default, in build_dir)"
	}
	seen := map[string]string{}
	for _, w := range append([]Written{out}, p.opt.Written...) {
		c.write(w, seen)
	}
	if len(c.errs) > 0 {
		return c.errs
	}
	return nil
}

// pathCheck is checkPaths' state: what the build owns and reads, and the
// problems found.
type pathCheck struct {
	p     *planner
	own   []owned
	reads []read
	errs  errorList
}

// read is a file the build reads.
type read struct{ path, what string }

// abs is path made absolute (relative to the config's directory).
func (c *pathCheck) abs(path string) string {
	a, err := filepath.Abs(c.p.path(path))
	if err != nil {
		return filepath.Clean(path)
	}
	return a
}

// ownedBy returns what the build writes at path, or "".
func (c *pathCheck) ownedBy(path string) string {
	for _, o := range c.own {
		if path == o.path || o.dir && strings.HasPrefix(path, o.path+string(filepath.Separator)) {
			return o.what
		}
	}
	return ""
}

// inputs checks that no input is one of the build's own files, and notes
// each as read.
func (c *pathCheck) inputs() {
	bd := c.abs(c.p.cfg.BuildDir)
	for i, in := range c.p.cfg.Inputs {
		a := c.abs(in)
		loc := c.p.cfg.Input(i)
		if what := c.ownedBy(a); what != "" {
			c.errs = append(c.errs, loc.Errorf("input %q is %s", in, inside(a, what, c.own)))
		} else if a == bd {
			c.errs = append(c.errs, loc.Errorf("input %q is the build directory", in))
		}
		c.reads = append(c.reads, read{a, "an input (" + loc.Path + ")"})
	}
}

// write checks a file the build writes against the directories, the files
// written before it (seen: by absolute path, for what) and those read.
func (c *pathCheck) write(w Written, seen map[string]string) {
	a := c.abs(w.Path)
	shown := w.Shown
	if shown == "" {
		shown = w.Path
	}
	report := func(msg string) {
		if w.field != "" {
			c.errs = append(c.errs, c.p.cfg.Field(w.field).Error("%s: %s", w.Where, msg))
		} else {
			c.errs = append(c.errs, errors.New(w.Where+": "+msg))
		}
	}
	bad := func(format string, args ...any) {
		report(fmt.Sprintf("%q %s; it would be overwritten", shown, fmt.Sprintf(format, args...)))
	}
	if fi, err := os.Stat(a); err == nil && fi.IsDir() {
		report(fmt.Sprintf("%q is a directory (name a file to write)", shown))
		return
	}
	if first, dup := seen[a]; dup {
		bad("is also written for %s", first)
		return
	}
	seen[a] = strings.TrimPrefix(w.Where, "command line: ")
	if w.Path == c.p.cfg.Output {
		seen[a] = "the output object"
	}
	switch {
	case a == c.abs(c.p.cfg.BuildDir):
		bad("is the build directory")
		return
	case c.ownedBy(a) != "":
		bad("is %s", inside(a, c.ownedBy(a), c.own))
		return
	}
	for _, r := range c.reads {
		if a == r.path || sameFile(a, r.path) {
			bad("is %s", r.what)
			return
		}
	}
}

// inside describes where path is among the build's own files.
func inside(path, what string, own []owned) string {
	for _, o := range own {
		if o.what == what && o.dir && path != o.path {
			return "inside " + what
		}
	}
	return what
}

// sameFile reports whether a and b are the same existing file (through a
// link, say).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
