package postlink

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/esimd"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// IO is the world a run talks to besides the files it names.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Argv0 is the name the tool was invoked as, used for input parse
	// errors (LLVM prints those with argv[0]).
	Argv0 string
	// Dir is the directory the relative paths of Options (the input, the
	// outputs, -out-dir, -device-lib-dir) are relative to; "" is the
	// working directory. The paths written into the tables stay as given.
	Dir string
	// Hooks are the post-split steps; nil means DefaultHooks().
	Hooks *Hooks
	// Jobs bounds how many modules are made at once (0: one per CPU).
	Jobs int
	// Tokens, if set, lends extra job tokens: the caller already holds one
	// (the first worker uses it); every further worker needs one from
	// TryAcquire, and gives it back with Release when it stops.
	Tokens Tokens
	// ReadFile reads the input file (not standard input); nil means
	// os.ReadFile. A command maps it instead (internal/mapfile).
	ReadFile func(name string) ([]byte, error)
	// Assemble turns a module's textual IR into LLVM bitcode. Run uses it
	// for every module file when -S is not given (module files then end in
	// .bc, as the reference's do, and are written as the text files would
	// be); nil means module files are written as text (.ll) whether or not
	// -S is given.
	Assemble func(text []byte) ([]byte, error)
}

// Tokens lends job tokens (a build's pool): TryAcquire takes one if one
// is free at once, and never waits.
type Tokens interface {
	TryAcquire() bool
	Release()
}

// Run performs one sycl-post-link invocation: check the options, read and
// split the input, process and write every module, write the tables.
func Run(o *Options, rio IO) (err error) {
	if err := o.Validate(); err != nil {
		return err
	}
	hooks := rio.Hooks
	if hooks == nil {
		h := DefaultHooks()
		hooks = &h
	}
	if o.Properties && hooks.Properties == nil {
		return errorf("-properties: property sets are not implemented in this build")
	}
	m, err := readInput(o, rio)
	if err != nil {
		return err
	}
	given := len(o.Outputs) > 0
	if !given {
		ext := ".files"
		if o.IROutputOnly {
			ext = ".out"
		}
		o.Outputs = []Output{{File: stem(o.Input) + ext}}
	}
	out := &outputs{stdout: rio.Stdout, dir: rio.Dir, bufs: make(chan *moduleBuf, max(rio.Jobs, runtime.GOMAXPROCS(0))+1)}
	naming := NewNaming(o)
	if !o.Assembly && rio.Assemble != nil {
		out.assemble, naming.Bitcode = rio.Assemble, true
	}
	r := &run{o: o, io: rio, hooks: hooks, m: m, naming: naming, out: out,
		diag: Diag{W: rio.Stderr}, given: given}
	defer func() {
		if err != nil {
			r.out.discard()
		}
	}()
	return r.process()
}

// readInput reads and parses the input file ("-": standard input). LLVM
// names standard input "<stdin>" in messages and module identifiers.
func readInput(o *Options, rio IO) (*llvmir.Module, error) {
	name := o.Input
	var src []byte
	var err error
	if name == "-" {
		name = "<stdin>"
		src, err = io.ReadAll(rio.Stdin)
	} else {
		read := rio.ReadFile
		if read == nil {
			read = os.ReadFile
		}
		src, err = read(basedir.Resolve(rio.Dir, name))
	}
	if err != nil {
		return nil, plainf("%s: %s: error: Could not open input file: %s", rio.Argv0, name, errText(err))
	}
	if !bitcode.Is(src) {
		// As LLVM reads it: zero-index getelementptr expressions are gone
		// (a folded line's columns shift in later messages).
		src, _ = llvmir.FoldZeroGEPs(src)
	}
	workers, release := parseWorkers(rio)
	m, err := llvmir.LoadWith(name, src, workers)
	release()
	var be *bitcode.Error
	if errors.As(err, &be) {
		return nil, plainf("%s: %s: error: %s", rio.Argv0, name, strings.TrimPrefix(err.Error(), name+": "))
	}
	if err != nil {
		var lines []string
		for _, l := range strings.Split(err.Error(), "\n") {
			lines = append(lines, rio.Argv0+": "+withErrorTag(l))
		}
		return nil, plainf("%s", strings.Join(lines, "\n"))
	}
	return m, nil
}

// withErrorTag turns "file:line:col: msg" into LLVM's
// "file:line:col: error: msg".
func withErrorTag(l string) string {
	parts := strings.SplitN(l, ": ", 2)
	if len(parts) == 2 && !strings.HasPrefix(parts[1], "error: ") {
		return parts[0] + ": error: " + parts[1]
	}
	return l
}

// run is the state of one invocation.
type run struct {
	o      *Options
	io     IO
	hooks  *Hooks
	m      *llvmir.Module
	naming Naming
	out    *outputs
	diag   Diag
	tables []*Table
	sp     *split.Splitter
	given  bool // -o was given
	// early says workers write a group's files as soon as they make them,
	// which they can when each group's ID is its index.
	early bool
	// aspects maps !sycl_aspects values to names (target filtering).
	aspects map[int64]string
	// bf16Decls are the module's bfloat16 device-library declarations.
	bf16Decls []*llvmir.Entity
}

func (r *run) outputsGiven() bool { return r.given }

// scope maps the split mode to the splitter's grouping scope; "auto" is
// per source, except that with a single output it only filters entry
// points.
func (r *run) scope() split.Scope {
	switch r.o.Split {
	case SplitSource:
		return split.ScopePerModule
	case SplitKernel:
		return split.ScopePerKernel
	case SplitAuto:
		if r.o.IROutputOnly {
			return split.ScopeGlobal
		}
		return split.ScopePerModule
	}
	return split.ScopeGlobal
}

func (r *run) process() error {
	o, m := r.o, r.m
	cfg := split.Config{
		Scope:       r.scope(),
		NoSplit:     o.Split == SplitNone,
		OnlyKernels: o.EmitOnlyKernelsAsEPs,
		AllowDeps:   o.AllowDeps,
		ModuleName:  m.File,
	}
	invokeSimd := false
	if esimd.HasInvokeSimd(m) {
		if o.SplitESIMD {
			return errorf("'invoke_simd' calls detected, '-split-esimd' must not be specified")
		}
		// The reference lowers invoke_simd first in its pre-split
		// pipeline; sycbuild rewrites the module's text and reads it again
		// (only modules with invoke_simd calls pay for that).
		src, err := esimd.LowerInvokeSimd(m)
		if err != nil {
			return errorf("%s", err)
		}
		if m, err = llvmir.Parse(m.File, src); err != nil {
			return errorf("invoke_simd lowering made invalid IR: %s", err)
		}
		r.m, invokeSimd = m, true
	}
	modified, err := preSplit(m, &cfg)
	if err != nil {
		return errorf("%s", err)
	}
	modified = modified || invokeSimd
	r.sp = split.New(m, cfg)
	r.aspects = r.aspectNames()
	r.findBF16Decls()
	splitOccurred := r.sp.SplitOccurred()
	modified = modified || splitOccurred
	if o.DeviceGlobals {
		// The newest reference returns this check's failure as an
		// llvm::Error, which its ExitOnErr prints after "error: ".
		if err := r.sp.CheckDeviceGlobals(); err != nil {
			return errorf("error: %s", err)
		}
	}
	for _, out := range o.Outputs {
		r.tables = append(r.tables, newTable(out, o.Properties && !o.EmbedAuxInfo, o.Symbols && !o.EmbedAuxInfo))
	}
	st := &state{modified: modified, splitOccurred: splitOccurred}
	if o.IROutputOnly {
		return r.irOnly(st)
	}
	if err := r.emitAll(st); err != nil {
		return err
	}
	for _, t := range r.tables {
		if err := r.out.writeAtomic(t.Output.File, []byte(t.String())); err != nil {
			return err
		}
	}
	return nil
}

// state is what processing the groups learns along the way.
type state struct {
	modified, splitOccurred bool
}

// parseWorkers is how many goroutines may read the input's function
// bodies beside the one that reads the module: Jobs (one per CPU if 0), less
// that one; under a build's pool, only the tokens it lends at once, so that
// -j bounds them too. release gives the tokens back.
func parseWorkers(rio IO) (workers int, release func()) {
	want := rio.Jobs
	if want <= 0 {
		want = runtime.GOMAXPROCS(0)
	}
	if rio.Tokens == nil {
		return want - 1, func() {}
	}
	for workers < want-1 && rio.Tokens.TryAcquire() {
		workers++
	}
	return workers, func() {
		for range workers {
			rio.Tokens.Release()
		}
	}
}

// jobs is the number of modules made at once.
func (r *run) jobs() int {
	if r.io.Jobs > 0 {
		return r.io.Jobs
	}
	return runtime.GOMAXPROCS(0)
}
