package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
)

// hostFlags are the build flags for running under another build system
// (make, CMake, ninja, Bazel):
//
//	sycbuild -config t.yaml [-o out.o] [-build-dir dir] [-split mode]
//	         [-targets a,b] [-M out.d [-MP]] [--no-cache] [in1.ll in2.ll …]
//
// Paths on the command line are relative to the directory sycbuild was
// started in, as with any command; the build's paths are relative to the
// config's directory, so they are rewritten relative to it.
type hostFlags struct {
	output   string
	buildDir string
	split    string
	targets  string
	depfile  string
	// depfileGiven is depfile as given (apply makes depfile absolute).
	depfileGiven string
	phony        bool
	noCache      bool
	inputs       []string // the arguments after the flags

	// given maps each rewritten path (relative to the config's directory)
	// back to the path as given, for the depfile.
	given map[string]string
}

func (h *hostFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.output, "o", "", "write the output object to `file` instead of the config's output")
	fs.StringVar(&h.buildDir, "build-dir", "", "keep intermediate files in `dir` instead of the config's build_dir")
	fs.StringVar(&h.split, "split", "", "split `mode` instead of the config's (off, per_source, per_kernel, auto)")
	fs.StringVar(&h.targets, "targets", "", "build only the config's targets with these `names` (comma-separated)")
	fs.StringVar(&h.depfile, "M", "", "after the build, write a make-style depfile to `file`: the output depends on the config, the device inputs and the files they name")
	fs.StringVar(&h.depfile, "depfile", "", "write the depfile to `file`: the same as -M")
	fs.BoolVar(&h.phony, "MP", false, "with -M, also write an empty rule per prerequisite (as gcc -MP), so make does not fail when one is deleted; ninja rejects them")
	fs.BoolVar(&h.noCache, "no-cache", false, "for hosts that cache by themselves (Bazel): keep no action cache or other state; write only the output and the build directory's intermediate files")
}

// apply rewrites the command-line paths relative to the config's directory
// and applies them and the other overrides to cfg.
func (h *hostFlags) apply(cfg *configs.Config) error {
	h.given = map[string]string{}
	rel := func(p string) (string, error) {
		r, err := fromCaller(cfg.Dir, p)
		if err != nil {
			return "", err
		}
		h.given[r] = p
		return r, nil
	}
	var o configs.Overrides
	var err error
	if h.output != "" {
		if o.Output, err = rel(h.output); err != nil {
			return err
		}
	}
	if h.buildDir != "" {
		if o.BuildDir, err = rel(h.buildDir); err != nil {
			return err
		}
	}
	for _, in := range h.inputs {
		r, err := rel(in)
		if err != nil {
			return err
		}
		o.Inputs = append(o.Inputs, r)
	}
	o.Split = configs.Split(h.split)
	if h.targets != "" {
		for _, n := range strings.Split(h.targets, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.Targets = append(o.Targets, n)
			}
		}
	}
	if h.depfile != "" {
		h.depfileGiven = h.depfile
		if h.depfile, err = filepath.Abs(h.depfile); err != nil {
			return err
		}
	}
	o.Given = h.given
	return cfg.Override(o)
}

// fromCaller turns path, relative to the working directory, into the same
// file relative to dir (the config's directory, itself relative to the
// working directory). Absolute paths stay absolute. A path that leaves dir
// goes up with "..", which the system resolves from where dir really is:
// if dir is reached through a symbolic link, the path is computed from
// dir's real location instead.
func fromCaller(dir, path string) (string, error) {
	if filepath.IsAbs(path) || dir == "." {
		return filepath.Clean(path), nil
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	absPath, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return "", err
	}
	if rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel, nil // inside dir: no ".." to resolve
	}
	realDir, err := filepath.EvalSymlinks(absDir)
	if err != nil {
		return "", fmt.Errorf("the config's directory: %w", err)
	}
	if realDir == absDir {
		return rel, nil
	}
	realPath, err := realParent(absPath)
	if err != nil {
		return "", err
	}
	return filepath.Rel(realDir, realPath)
}

// realParent resolves the links in path's directory (which must exist) and
// keeps the last element, which may not exist yet (an output).
func realParent(path string) (string, error) {
	d, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	return filepath.Join(d, filepath.Base(path)), nil
}

// asGiven is how a path of the build (relative to the config's directory
// dir) is written for the caller: as it was given on the command line, else
// relative to the caller's working directory by way of the config's
// directory as given.
func (h *hostFlags) asGiven(dir, p string) string {
	if g, ok := h.given[p]; ok {
		return g
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// writeDepfile writes the -M depfile after a successful build: the output
// object depends on the config, every device input, and every file a source
// list or table names (read relative to the config's directory).
func (h *hostFlags) writeDepfile(cfg *configs.Config, output string, g *graph.Graph) error {
	if h.depfile == "" {
		return nil
	}
	sources, err := g.Sources(cfg.Dir)
	if err != nil {
		return fmt.Errorf("depfile: %w", err)
	}
	d := &graph.Depfile{
		Targets:            []string{h.asGiven(cfg.Dir, output)},
		Prerequisites:      []string{cfg.File},
		PhonyPrerequisites: h.phony,
	}
	// Every input, also one skipped for holding no device code: editing it
	// may change that.
	seen := map[string]bool{}
	for _, p := range append(append([]string(nil), cfg.Inputs...), sources...) {
		if !seen[p] {
			seen[p] = true
			d.Prerequisites = append(d.Prerequisites, h.asGiven(cfg.Dir, p))
		}
	}
	return d.WriteFile(h.depfile)
}
