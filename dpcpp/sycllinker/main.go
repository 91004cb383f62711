package sycllinker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/offloadbin"
	"github.com/sycbuild/sycbuild/toolchain"
)

// LLVM is the LLVM generation whose tools the link runs (llvm-link-22,
// llc-22): the one whose clang-sycl-linker this tool stands in for.
const LLVM = 22

// Name is the tool's name: the program it stands in for, and the command
// that runs it (sycbuild clang-sycl-linker ...).
const Name = "clang-sycl-linker"

// Main runs clang-sycl-linker with its command line and the SYCBUILD_*
// settings of the environment.
func Main(argv0 string, args []string, stdio clopt.Stdio) int {
	o, err := Parse(argv0, args, os.Getenv, stdio.Out)
	if err != nil {
		return clopt.Report(stdio.Err, err)
	}
	// The link parses, splits and writes modules as sycl-post-link does.
	syclpostlink.SetCollector()
	return Run(argv0, "", o, stdio)
}

// Run runs the link with options o, whose relative paths are relative to
// dir ("" is the working directory), and returns the exit status; errors
// go to stdio.Err after argv0.
func Run(argv0, dir string, o Options, stdio clopt.Stdio) int {
	l := &link{o: &o, dir: dir, stdio: stdio, find: &toolchain.Finder{Versions: toolchain.LoadVersionCache("")}}
	err := l.run(context.Background())
	if !o.SaveTemps && !o.DryRun {
		if l.tmp != "" {
			os.RemoveAll(l.path(l.tmp))
		}
		for _, f := range l.beside {
			os.Remove(l.path(f))
		}
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "%s: error: %v\n", argv0, err)
		return 1
	}
	return 0
}

// link is one run.
type link struct {
	o     *Options
	dir   string
	stdio clopt.Stdio
	find  *toolchain.Finder
	// tmp holds the intermediate files: a fresh directory removed at the
	// end, or "<output>.temps" kept with --save-temps (and named in what
	// --dry-run prints).
	tmp string
	// mu guards beside and the messages of parallel jobs.
	mu sync.Mutex
	// beside are the files written beside the output on
	// clang-sycl-linker-22's route (see codegen).
	beside []string
}

// module is one device module on its way to an image.
type module struct {
	file    string // the module (bitcode or text), then its image
	symbols []string
	props   string
	// index names the module's images ("<stem>_<index>.spv"); "" is its
	// position.
	index string
}

func (l *link) path(p string) string { return basedir.Resolve(l.dir, p) }

func (l *link) run(ctx context.Context) error {
	o := l.o
	for _, in := range o.Inputs {
		if err := checkInput(l.path(in)); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
	}
	l.tmp = o.Output + ".temps"
	switch {
	case o.SaveTemps && !o.DryRun:
		if err := os.MkdirAll(l.path(l.tmp), 0o755); err != nil {
			return err
		}
	case !o.DryRun:
		t, err := os.MkdirTemp("", filepath.Base(o.Output)+".temps-*")
		if err != nil {
			return err
		}
		l.tmp = t
	}

	linked, err := l.linkInputs(ctx)
	if err != nil {
		return err
	}
	if o.PrintLinkedModule && !o.DryRun {
		if err := printModule(l.stdio.Out, l.path(linked)); err != nil {
			return err
		}
	}

	var mods []*module
	if o.Sycbuild() {
		mods, err = l.postLink(linked)
	} else {
		mods, err = l.oneModule(linked)
	}
	if err != nil {
		return err
	}
	if err := l.codegen(ctx, mods); err != nil {
		return err
	}
	if o.DryRun {
		return nil
	}
	return l.write(mods)
}

// checkInput accepts LLVM bitcode, as clang-sycl-linker-22 does, and
// textual IR (.ll), which llvm-link reads as well.
func checkInput(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return underlying(err)
	}
	defer f.Close()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	switch {
	case n == 4 && (string(head[:]) == "BC\xc0\xde" || string(head[:]) == "\xde\xc0\x17\x0b"):
		return nil
	case strings.HasSuffix(p, ".ll"):
		return nil
	}
	return errors.New("Unsupported file type (want LLVM bitcode or a .ll file)")
}

func underlying(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// linkInputs links the inputs, then the device libraries of the triple
// (only the symbols needed), and returns the linked bitcode's path. On
// clang-sycl-linker-22's route -v says so as that tool does.
func (l *link) linkInputs(ctx context.Context) (string, error) {
	o := l.o
	libs, all, err := l.deviceLibs()
	if err != nil {
		return "", err
	}
	inputs := o.Inputs
	if o.Split == "source" && len(inputs) > 1 {
		if inputs, err = l.moduleIDs(inputs); err != nil {
			return "", err
		}
	}
	linkTool, err := l.tool(configs.ToolLLVMLink)
	if err != nil {
		return "", err
	}
	linked := filepath.Join(l.tmp, "linked.bc")
	if err := l.exec(ctx, linkTool, append([]string{"-o", linked}, dashSafe(inputs)...)); err != nil {
		return "", err
	}
	if len(libs) > 0 {
		withLibs := filepath.Join(l.tmp, "linked.libs.bc")
		args := append([]string{"--only-needed", linked}, dashSafe(libs)...)
		if err := l.exec(ctx, linkTool, append(args, "-o", withLibs)); err != nil {
			return "", err
		}
		linked = withLibs
	}
	if l.compat() && o.Verbose {
		l.say("sycl-device-link: inputs: %s libfiles: %s output: %s", strings.Join(o.Inputs, ", "), strings.Join(all, ", "), linked)
	}
	return linked, nil
}

// deviceLibs returns the --device-libs files whose target triple is the
// link's, which clang-sycl-linker-22 links, and all of them; a missing
// one is an error. An empty file is an empty module, of no triple.
func (l *link) deviceLibs() (libs, all []string, err error) {
	for _, name := range l.o.DeviceLibs {
		p := name
		if lp := l.o.LibraryPath; lp != "" {
			// As LLVM's path::append joins them, uncleaned ("./lib.bc").
			p = strings.TrimSuffix(lp, "/") + "/" + name
		}
		fi, err := os.Stat(l.path(p))
		if err != nil {
			return nil, nil, fmt.Errorf("'%s' SYCL device library file is not found.", p)
		}
		all = append(all, p)
		if fi.Size() == 0 {
			continue
		}
		info, err := toolchain.ScanIR(l.path(p))
		if err != nil {
			return nil, nil, err
		}
		if info.Triple == l.o.Triple {
			libs = append(libs, p)
		}
	}
	return libs, all, nil
}

// tool finds the executable of an LLVM 22 tool or ocloc. An LLVM tool
// found on PATH under its versioned name (llc-22) is taken as it is, with
// no --version run; otherwise the build's discovery decides (a plain llc
// must report LLVM 22).
func (l *link) tool(role configs.Tool) (string, error) {
	if role == configs.ToolLLVMLink || role == configs.ToolLLC {
		name := fmt.Sprintf("%s-%d", role, LLVM)
		if _, err := exec.LookPath(name); err == nil {
			return name, nil
		}
	}
	t, err := l.find.Find(role, LLVM)
	if err != nil {
		return "", err
	}
	return t.Path, nil
}

// exec runs one command in the link's directory, printing it first with
// -v or --dry-run (and only printing it with --dry-run). A failure names
// the command and ends with its output. On clang-sycl-linker-22's route
// only the commands that tool runs itself are printed, as it prints them
// (` "ocloc" -output_no_suffix …`): what it does in-process (the link, the
// SPIR-V backend) it reports with lines of its own.
func (l *link) exec(ctx context.Context, tool string, args []string) error {
	argv := append([]string{tool}, args...)
	if l.compat() {
		if l.aotTool(tool) && (l.o.Verbose || l.o.DryRun) {
			l.say(" %q %s", tool, strings.Join(args, " "))
		}
	} else if l.o.Verbose || l.o.DryRun {
		l.say("%s", shellQuote(argv))
	}
	if l.o.DryRun {
		return nil
	}
	var out bytes.Buffer
	cmd := &jobs.Command{Argv: argv, Dir: l.dir, Stdout: &out, Stderr: &out}
	if _, err := cmd.Run(ctx); err != nil {
		return fmt.Errorf("'%s' failed (%v): %s\n%s", filepath.Base(tool), err, shellQuote(argv), tail(out.Bytes()))
	}
	return nil
}

// tail is the last lines of a command's output, at most 2 KiB.
func tail(b []byte) string {
	b = bytes.TrimRight(b, "\n")
	if len(b) > 2048 {
		b = b[len(b)-2048:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

// oneModule is clang-sycl-linker-22's route: the linked module is the one
// module, its symbols every function with a kernel calling convention.
func (l *link) oneModule(linked string) ([]*module, error) {
	m := &module{file: linked}
	if !l.o.DryRun {
		syms, err := kernels(l.path(linked))
		if err != nil {
			return nil, err
		}
		m.symbols = syms
	}
	return []*module{m}, nil
}

// compat reports whether the run takes clang-sycl-linker-22's route.
func (l *link) compat() bool { return !l.o.Sycbuild() }

// The --arch values clang-sycl-linker-22 compiles ahead of time on its
// route (LLVM 22's OffloadArch knows one Intel GPU and one Intel CPU).
const (
	llvmIntelGPU = "bmg_g21"
	llvmIntelCPU = "graniterapids"
)

// aotTool reports whether tool is the ahead-of-time compiler the route
// runs (printed as clang-sycl-linker-22 prints it).
func (l *link) aotTool(tool string) bool {
	b := filepath.Base(tool)
	return b == "ocloc" || b == "opencl-aot"
}

// findAOT finds ocloc or opencl-aot as clang-sycl-linker-22 does (on PATH;
// by name only with --dry-run).
func (l *link) findAOT(name string) (string, error) {
	if l.o.DryRun {
		return name, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("Unable to find '%s' in path", name)
	}
	return p, nil
}

// codegen compiles every module to its image, in parallel: llc-22's
// SPIR-V backend, then the ahead-of-time compiler the triple or arch asks
// for.
//
// On clang-sycl-linker-22's route the files are named as that tool names
// them, beside the output: <stem>_<i>.spv, and <stem>_<i>.out ahead of
// time (<stem> is -o without its extension); they are removed at the end
// unless --save-temps. sycbuild's route keeps them in the temporary
// directory.
func (l *link) codegen(ctx context.Context, mods []*module) error {
	o := l.o
	llc, err := l.tool(configs.ToolLLC)
	if err != nil {
		return err
	}
	var aot string
	switch {
	case o.AOT():
		aot, err = l.tool(configs.ToolOcloc)
	case l.compat() && o.Arch == llvmIntelGPU:
		aot, err = l.findAOT("ocloc")
	case l.compat() && o.Arch == llvmIntelCPU:
		aot, err = l.findAOT("opencl-aot")
	}
	if err != nil {
		return err
	}
	stem := filepath.Join(l.tmp, strings.TrimSuffix(filepath.Base(o.Output), filepath.Ext(o.Output)))
	if l.compat() {
		// clang-sycl-linker-22 cuts at the last '.' of the whole path, even
		// in a directory's name; here only in the file's.
		stem = o.Output
		if i := strings.LastIndexByte(stem, '.'); i > strings.LastIndexByte(stem, '/') {
			stem = stem[:i]
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, m := range mods {
		if m.index == "" {
			m.index = strconv.Itoa(i)
		}
		g.Go(func() error {
			spv := stem + "_" + m.index + ".spv"
			args := []string{"-mtriple=" + o.Triple, "-filetype=obj", m.file, "-o", spv}
			if o.Sycbuild() {
				args = toolchain.LLCSPIRVArgs(m.file, spv, nil)
			}
			if err := l.exec(ctx, llc, args); err != nil {
				return err
			}
			l.made(spv)
			if l.compat() && o.Verbose {
				l.say("SPIR-V Backend: input: %s, output: %s", m.file, spv)
			}
			m.file = spv
			if o.SPIRVDumpDir != "" && !o.DryRun {
				if err := copyFile(l.path(spv), l.path(filepath.Join(o.SPIRVDumpDir, filepath.Base(spv)))); err != nil {
					return err
				}
			}
			if aot == "" {
				return nil
			}
			bin := stem + "_" + m.index + ".out"
			var args2 []string
			switch {
			case o.AOT():
				device := strings.TrimPrefix(o.Arch, "intel_gpu_")
				args2 = toolchain.OclocArgs(spv, bin, []string{device}, strings.Fields(o.OclocOptions))
			case o.Arch == llvmIntelGPU:
				args2 = append(append([]string{"-output_no_suffix", "-spirv_input", "-device", o.Arch}, strings.Fields(o.OclocOptions)...), "-output", bin, "-file", spv)
			default:
				args2 = append(append([]string{"--device=cpu"}, strings.Fields(o.OpenCLAOTOptions)...), "-o", bin, spv)
			}
			if err := l.exec(ctx, aot, args2); err != nil {
				return err
			}
			l.made(bin)
			m.file = bin
			return nil
		})
	}
	return g.Wait()
}

// say prints one line of -v or --dry-run output; the modules' jobs print
// in parallel.
func (l *link) say(format string, args ...any) {
	l.mu.Lock()
	fmt.Fprintf(l.stdio.Err, format+"\n", args...)
	l.mu.Unlock()
}

// made records a file written beside the output, to be removed at the end
// unless --save-temps.
func (l *link) made(file string) {
	if !l.compat() || l.o.DryRun {
		return
	}
	l.mu.Lock()
	l.beside = append(l.beside, file)
	l.mu.Unlock()
}

// write writes the images as OffloadBinaries laid end to end, the output
// clang-linker-wrapper-22 reads.
func (l *link) write(mods []*module) error {
	// clang-sycl-linker-22 gives every image kind none, even ahead of
	// time; sycbuild's spir64_gen images are objects (what the runtime
	// calls native).
	kind := offloadbin.ImageNone
	if l.o.AOT() {
		kind = offloadbin.ImageObject
	}
	var ims []*offloadbin.Image
	for _, m := range mods {
		data, err := os.ReadFile(l.path(m.file))
		if err != nil {
			return err
		}
		im, err := offloadbin.SYCLImage(kind, l.o.Triple, l.o.Arch, m.symbols, m.props, data)
		if err != nil {
			return err
		}
		ims = append(ims, im)
	}
	b, err := offloadbin.Marshal(ims...)
	if err != nil {
		return err
	}
	return atomicfile.Write(l.path(l.o.Output), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// dashSafe passes a file whose name starts with '-' as ./-name, never as
// an option.
func dashSafe(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		if strings.HasPrefix(f, "-") {
			f = "./" + f
		}
		out[i] = f
	}
	return out
}

// shellQuote renders argv as one line a POSIX shell reads back as argv.
func shellQuote(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+,:@%") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}
