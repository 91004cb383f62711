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
	var errs errorList
	abs := func(path string) string {
		a, err := filepath.Abs(p.path(path))
		if err != nil {
			return filepath.Clean(path)
		}
		return a
	}
	bd := p.cfg.BuildDir
	own := []owned{
		{abs(filepath.Join(bd, StateDirName)), true, "the state directory of the build"},
		{abs(filepath.Join(bd, "linked.ll")), false, "the linked module the build writes"},
	}
	for _, t := range p.cfg.Targets {
		own = append(own, owned{abs(filepath.Join(bd, t.Name)), true, "the work directory of target " + t.Name})
	}
	// ownedBy returns what the build writes at path, or "".
	ownedBy := func(path string) string {
		for _, o := range own {
			if path == o.path || o.dir && strings.HasPrefix(path, o.path+string(filepath.Separator)) {
				return o.what
			}
		}
		return ""
	}
	type read struct{ path, what string }
	var reads []read
	if p.opt.ConfigFile != "" {
		reads = append(reads, read{abs(p.opt.ConfigFile), "the config file"})
	}
	for i, in := range p.cfg.Inputs {
		a := abs(in)
		loc := p.cfg.Input(i)
		if what := ownedBy(a); what != "" {
			errs = append(errs, loc.Errorf("input %q is %s", in, inside(a, what, own)))
		} else if a == abs(bd) {
			errs = append(errs, loc.Errorf("input %q is the build directory", in))
		}
		reads = append(reads, read{a, "an input (" + loc.Path + ")"})
	}
	if a := abs(filepath.Join(bd, "linked.ll")); ownedBy(a) != "the linked module the build writes" {
		// A target named linked.ll: its directory would be the linked module.
		for _, t := range p.cfg.Targets {
			if t.Name == "linked.ll" {
				errs = append(errs, p.cfg.NameLoc(t).Errorf("target name %q is the file %s the build links the inputs into", t.Name, filepath.Join(bd, "linked.ll")))
			}
		}
	}
	out := Written{Path: p.cfg.Output, Where: "output", field: "output"}
	if flag := p.cfg.Field("output").Flag(); flag != "" {
		out.Where, out.field = "command line: "+flag, ""
	} else if !p.cfg.Field("output").Given() {
		out.Where += " (the default, in build_dir)"
	}
	writes := append([]Written{out}, p.opt.Written...)
	seen := map[string]string{}
	for _, w := range writes {
		a := abs(w.Path)
		shown := w.Shown
		if shown == "" {
			shown = w.Path
		}
		report := func(msg string) {
			if w.field != "" {
				errs = append(errs, p.cfg.Field(w.field).Error("%s: %s", w.Where, msg))
			} else {
				errs = append(errs, errors.New(w.Where+": "+msg))
			}
		}
		bad := func(format string, args ...any) {
			report(fmt.Sprintf("%q %s; it would be overwritten", shown, fmt.Sprintf(format, args...)))
		}
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			report(fmt.Sprintf("%q is a directory (name a file to write)", shown))
			continue
		}
		if first, dup := seen[a]; dup {
			bad("is also written for %s", first)
			continue
		}
		seen[a] = strings.TrimPrefix(w.Where, "command line: ")
		if w.Path == p.cfg.Output {
			seen[a] = "the output object"
		}
		switch {
		case a == abs(bd):
			bad("is the build directory")
			continue
		case ownedBy(a) != "":
			bad("is %s", inside(a, ownedBy(a), own))
			continue
		}
		for _, r := range reads {
			if a == r.path || sameFile(a, r.path) {
				bad("is %s", r.what)
				break
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
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
