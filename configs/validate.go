package configs

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sycbuild/sycbuild/internal/suggest"
	"github.com/sycbuild/sycbuild/internal/triple"
)

var (
	nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	archRE = regexp.MustCompile(`^sm_[0-9]+a?$`)
	// amdArchRE is an AMD GPU target ID: the processor and optional
	// feature settings (gfx90a, gfx90a:xnack+, gfx942:sramecc+:xnack-).
	amdArchRE = regexp.MustCompile(`^gfx[0-9]+[a-z]?(:(sramecc|xnack)[+-])*$`)
	// linkedRE matches the files the build links its inputs into:
	// linked.ll, and linked.N.ll per input given its module id.
	linkedRE = regexp.MustCompile(`^linked(\.[0-9]+)?\.ll$`)
)

// validate checks what the shape walk cannot: enum values, fields that only
// some kinds take, required per-kind fields, unique names.
func (c *Config) validate() errorList {
	v := &validator{c: c}
	if len(c.Inputs) == 0 {
		v.errorf("inputs", "inputs: list at least one device IR file (.ll or .bc)")
	}
	seen := map[string]int{}
	for i, in := range c.Inputs {
		path := fmt.Sprintf("inputs[%d]", i)
		switch ext := filepath.Ext(in); {
		case in == "." || in == "":
			v.errorf(path, "%s: empty file name", path)
		case badPath(in) != "":
			v.errorf(path, "%s: %q %s", path, in, badPath(in))
		case ext != ".ll" && ext != ".bc":
			v.errorf(path, "%s: %q is not LLVM IR (expected a .ll or .bc file)", path, in)
		}
		if j, dup := seen[in]; dup {
			v.errorf(path, "%s: %q is already listed as inputs[%d]", path, in, j)
		}
		seen[in] = i
	}
	if !oneOf(c.Split, Splits) {
		v.errorf("split", "split: unknown split mode %q (want %s%s)", c.Split, list(Splits), splitHint(c.Split))
	}
	if arch, _, _ := strings.Cut(c.Host, "-"); arch != "x86_64" && arch != "aarch64" {
		v.errorf("host", "host: unsupported host triple %q (sycbuild writes objects for x86_64 and aarch64 hosts)", c.Host)
	} else if os := triple.NonELF(c.Host); os != "" {
		v.errorf("host", "host: unsupported host triple %q: sycbuild writes ELF objects, and %q hosts do not link them (e.g. x86_64-unknown-linux-gnu)", c.Host, os)
	}
	if !oneOf(c.Wrapper, WrapperFormats) {
		v.errorf("wrapper", "wrapper: unknown wrapper format %q (want %s)", c.Wrapper, list(WrapperFormats))
	}
	if c.Jobs < 0 {
		v.errorf("jobs", "jobs: must be 0 (one per CPU) or more, got %d", c.Jobs)
	}
	for _, f := range []struct{ path, value string }{{"output", c.Output}, {"build_dir", c.BuildDir}} {
		if _, given := c.pos[f.path]; !given {
			continue // the default output is checked as build_dir
		}
		if why := badPath(f.value); why != "" {
			v.errorf(f.path, "%s: %q %s", f.path, f.value, why)
		}
	}
	if _, dup := seen[c.Output]; dup {
		v.errorf("output", "output: %q is also an input", c.Output)
	}
	for _, role := range sortedKeys(c.Tools) {
		path := "tools." + string(role)
		if _, ok := ParseTool(string(role)); !ok {
			known := toolNames(externalTools[:])
			v.errorf(path+keySuffix, "tools: unknown tool %q (known: %s%s)", role, strings.Join(known, ", "), didYouMean(string(role), known))
		} else if strings.TrimSpace(c.Tools[role]) == "" {
			v.errorf(path, "%s: empty tool path", path)
		}
	}
	if len(c.Targets) == 0 {
		v.errorf("targets", "targets: list at least one target (%s)", list(Kinds))
	}
	names := map[string]int{}
	for i, t := range c.Targets {
		v.target(i, t, names)
	}
	v.validateRun()
	v.validateExecutor()
	return v.errs
}

type validator struct {
	c    *Config
	errs errorList
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, v.c.errorAt(path, format, args...))
}

func (v *validator) target(i int, t *Target, names map[string]int) {
	p := fmt.Sprintf("targets[%d]", i)
	if !oneOf(t.Kind, Kinds) {
		hint := didYouMean(string(t.Kind), kindNames())
		if d := dpcppKind(t.Kind); d != "" {
			hint = fmt.Sprintf("; DPC++'s -fsycl-targets=%s is %s", t.Kind, d)
		}
		v.errorf(p+".kind", "%s.kind: unknown target kind %q (want %s%s)", p, t.Kind, list(Kinds), hint)
		return
	}
	if why := badName(t.Name); why != "" {
		v.errorf(p+".name", "%s.name: %q is not a valid target name: %s", p, t.Name, why)
	} else if j, dup := names[t.Name]; dup {
		v.errorf(p+".name", "%s: target name %q is already used by targets[%d]; give one of them a distinct name", p, t.Name, j)
	}
	names[t.Name] = i

	if t.Kind == SPIR64Gen {
		if len(t.Devices) == 0 {
			v.errorf(p, "%s: a spir64_gen target needs devices: (ocloc device names, e.g. [pvc, acm-g10])", p)
		}
		for j, d := range t.Devices {
			if d == "" || strings.ContainsAny(d, ", \t") {
				v.errorf(fmt.Sprintf("%s.devices[%d]", p, j), "%s.devices[%d]: %q is not one device name (list each device separately)", p, j, d)
			}
		}
	} else if t.Devices != nil {
		v.errorf(p+".devices", "%s.devices: only spir64_gen targets take devices", p)
	}
	switch {
	case t.Kind == NVPTX64 && t.Arch == "":
		v.errorf(p, "%s: an nvptx64 target needs arch: (e.g. sm_90)", p)
	case t.Kind == NVPTX64 && !archRE.MatchString(t.Arch):
		v.errorf(p+".arch", "%s.arch: %q is not an NVIDIA architecture (sm_<number>, e.g. sm_90)", p, t.Arch)
	case t.Kind == AMDGCN && t.Arch == "":
		v.errorf(p, "%s: an amdgcn target needs arch: (e.g. gfx90a)", p)
	case t.Kind == AMDGCN && !amdArchRE.MatchString(t.Arch):
		v.errorf(p+".arch", "%s.arch: %q is not an AMD GPU (gfx<number>, with :xnack± or :sramecc± settings, e.g. gfx90a)", p, t.Arch)
	case t.Kind != NVPTX64 && t.Kind != AMDGCN && t.Arch != "":
		v.errorf(p+".arch", "%s.arch: only nvptx64 and amdgcn targets take arch", p)
	}
	switch t.SpecConstants {
	case SpecNative:
		if t.Kind == SPIR64Gen || t.Kind == NVPTX64 || t.Kind == AMDGCN {
			v.errorf(p+".spec_constants", "%s.spec_constants: %s images are compiled ahead of time and need emulation (native values would be fixed at build time)", p, t.Kind)
		}
	case SpecEmulation:
	default:
		v.errorf(p+".spec_constants", "%s.spec_constants: unknown mode %q (want native or emulation)", p, t.SpecConstants)
	}
	v.spirvRoute(p, t)
	allowed := kindTools[t.Kind]
	for _, tool := range sortedKeys(t.Options) {
		if !oneOf(tool, allowed) {
			v.errorf(p+".options."+string(tool)+keySuffix, "%s.options: %s targets do not run %q (options may be given for: %s)", p, t.Kind, tool, strings.Join(toolNames(allowed), ", "))
		}
	}
}

// StateDirName is the directory under the build directory where sycbuild
// keeps its state (the action log, the tool versions, the lock).
const StateDirName = ".sycbuild"

// badName says why a target name cannot name its work directory
// (<build_dir>/<name>), or returns "". A name is one plain path element:
// letters, digits, '_', '.', '-', and not ".", "..", or the state
// directory.
func badName(n string) string {
	switch {
	case !nameRE.MatchString(n):
		return "use letters, digits, '_', '.', '-'"
	case n == "." || n == "..":
		return "it must name a directory of its own inside build_dir"
	case n == StateDirName:
		return "build_dir/" + StateDirName + " holds sycbuild's state"
	case linkedRE.MatchString(n):
		return "build_dir/" + n + " is the module the build links the inputs into"
	}
	return ""
}

// badPath says why a path cannot be used by a build, or returns "": the
// build log, the file lists and the file tables the build writes hold one
// path per line (tables: cells separated by '|'), so a path must not
// contain control characters (line breaks, tabs) or '|'.
func badPath(p string) string {
	for _, r := range p {
		switch {
		case r < ' ' || r == 0x7f:
			return fmt.Sprintf("contains the control character %q, which no file list or table can hold", r)
		case r == '|':
			return "contains '|', which separates the cells of a file table"
		}
	}
	return ""
}

func didYouMean(s string, candidates []string) string {
	if m := suggest.Closest(s, candidates); m != "" {
		return fmt.Sprintf("; did you mean %q?", m)
	}
	return ""
}

func oneOf[T ~string](v T, set []T) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

func list[T ~string](set []T) string {
	var b strings.Builder
	for i, s := range set {
		switch {
		case i == len(set)-1 && i > 0:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(string(s))
	}
	return b.String()
}

func kindNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = string(k)
	}
	return out
}

func sortedKeys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

// toolNames returns the tool roles' names (or any other values' strings).
func toolNames[T ~string](tools []T) []string {
	s := make([]string, len(tools))
	for i, t := range tools {
		s[i] = string(t)
	}
	return s
}
