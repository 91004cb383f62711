package configs

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Overrides are settings given on sycbuild's command line that replace the
// config's, so that a build rule can pass its own inputs and outputs
// (sycbuild -config t.yaml -o out.o in1.ll in2.ll). Paths are relative to
// the config's directory, like the config's own; the zero value changes
// nothing.
type Overrides struct {
	// Inputs replace the config's inputs.
	Inputs []string
	// Output replaces the output object.
	Output string
	// BuildDir replaces the build directory (and with it the default
	// output, when neither the config nor Output names one).
	BuildDir string
	// Split replaces the split mode.
	Split Split
	// Targets keeps only the config's targets with these names, in the
	// config's order.
	Targets []string
	// Given maps a path above to the way it was written on the command
	// line, for messages; paths not in it are shown as they are.
	Given map[string]string
}

// Override applies o to c and checks the result as Load checks a config.
// Problems are reported as "command line: …", all of them at once.
func (c *Config) Override(o Overrides) error {
	if c.flags == nil {
		c.flags = map[string]string{}
	}
	var errs []string
	errorf := func(format string, args ...any) {
		errs = append(errs, "command line: "+fmt.Sprintf(format, args...))
	}
	shown := func(p string) string {
		if g, ok := o.Given[p]; ok {
			return g
		}
		return p
	}
	for _, f := range []struct{ flag, path string }{{"-o", o.Output}, {"-build-dir", o.BuildDir}} {
		if why := badPath(f.path); why != "" {
			errorf("%s %q %s", f.flag, shown(f.path), why)
		}
	}
	if o.BuildDir != "" {
		c.flags["build_dir"] = "-build-dir"
		if !c.outputGiven() {
			c.Output = filepath.Join(filepath.Clean(o.BuildDir), DefaultOutput)
		}
		c.BuildDir = filepath.Clean(o.BuildDir)
	}
	if o.Output != "" {
		c.flags["output"] = "-o"
		c.Output = filepath.Clean(o.Output)
	}
	if len(o.Inputs) > 0 {
		c.flags["inputs"] = "inputs"
		c.Inputs = c.Inputs[:0:0]
		seen := map[string]bool{}
		for _, in := range o.Inputs {
			in = filepath.Clean(in)
			switch ext := filepath.Ext(in); {
			case badPath(in) != "":
				errorf("input %q %s", shown(in), badPath(in))
			case ext != ".ll" && ext != ".bc":
				errorf("input %q is not LLVM IR (expected a .ll or .bc file)", shown(in))
			case seen[in]:
				errorf("input %q is given twice", shown(in))
			}
			seen[in] = true
			c.Inputs = append(c.Inputs, in)
		}
	}
	if slices.Contains(c.Inputs, c.Output) {
		errorf("the output %q is also an input", shown(c.Output))
	}
	if o.Split != "" {
		if !oneOf(o.Split, Splits) {
			errorf("unknown split mode %q (want %s%s)", o.Split, list(Splits), splitHint(o.Split))
		}
		c.Split = o.Split
	}
	if len(o.Targets) > 0 {
		var names []string
		byName := map[string]*Target{}
		for _, t := range c.Targets {
			names = append(names, t.Name)
			byName[t.Name] = t
		}
		keep := map[*Target]bool{}
		for _, n := range o.Targets {
			if t := byName[n]; t != nil {
				keep[t] = true
			} else {
				errorf("%s names no target %q (its targets: %s)%s", c.File, n, strings.Join(names, ", "), didYouMean(n, names))
			}
		}
		c.Targets = slices.DeleteFunc(c.Targets, func(t *Target) bool { return !keep[t] })
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// outputGiven reports whether the config file itself set output.
func (c *Config) outputGiven() bool {
	_, ok := c.pos["output"]
	return ok
}
