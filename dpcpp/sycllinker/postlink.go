package sycllinker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/dpcpp/moduleid"
	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/postlink"
)

// kernelCC are the calling conventions clang-sycl-linker-22 lists as
// kernels (its isKernel).
var kernelCC = map[string]bool{"spir_kernel": true, "ptx_kernel": true, "amdgpu_kernel": true}

// kernels returns the functions of the module in file that have a kernel
// calling convention, in module order (the "symbols" of
// clang-sycl-linker-22's image).
func kernels(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	m, err := llvmir.Load(file, data)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range m.Functions() {
		if kernelCC[e.Func.CallingConv] {
			names = append(names, e.Name)
		}
	}
	return names, nil
}

// printModule writes the module in file as textual IR (--print-linked-module).
func printModule(w io.Writer, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if bitcode.Is(data) {
		if data, err = bitcode.Disassemble(file, data); err != nil {
			return err
		}
	}
	_, err = w.Write(data)
	return err
}

// moduleIDs gives every input's kernels and external functions the
// "sycl-module-id" of its translation unit (sycbuild sycl-module-id), so
// that a per-source split tells the units apart after the link, and
// returns the annotated files.
func (l *link) moduleIDs(inputs []string) ([]string, error) {
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = filepath.Join(l.tmp, "input."+strconv.Itoa(i)+".ll")
		if l.o.Verbose || l.o.DryRun {
			l.say("%s", shellQuote(append([]string{"sycbuild", "sycl-module-id"}, moduleid.Args(moduleid.Options{Input: in, Output: out[i]})...)))
		}
		if l.o.DryRun {
			continue
		}
		if err := moduleid.AnnotateFile(l.dir, in, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// postLinkOptions are sycl-post-link's options as the build passes them
// for a target (the DPC++ driver's, with text output), with the link's
// split and specialization-constant modes.
func (l *link) postLinkOptions(input, table string) postlink.Options {
	o := syclpostlink.Defaults()
	o.Input = input
	o.Outputs = []postlink.Output{{File: table}}
	o.DeviceGlobals, o.Properties = true, true
	spec := l.o.SpecConstants
	if spec == "" {
		spec = "native"
		if l.o.AOT() {
			spec = "emulation"
		}
	}
	o.SpecConst, _ = postlink.ParseSpecConstMode(spec)
	if l.o.Split != "" && l.o.Split != "off" {
		o.Split, o.SplitGiven = mustSplit(l.o.Split), true
	}
	o.EmitOnlyKernelsAsEPs, o.EmitParamInfo, o.Symbols = true, true, true
	o.EmitExportedSymbols, o.EmitImportedSymbols = true, true
	o.SplitESIMD, o.Assembly = true, true
	return o
}

func mustSplit(s string) postlink.SplitMode {
	m, ok := postlink.ParseSplitMode(s)
	if !ok {
		panic("sycllinker: split mode " + s)
	}
	return m
}

// postLink runs sycbuild's sycl-post-link in-process on the linked module
// and returns its modules with their symbols and, with --sycbuild-properties,
// their property sets.
func (l *link) postLink(linked string) ([]*module, error) {
	table := filepath.Join(l.tmp, "post", "module.table")
	po := l.postLinkOptions(linked, table)
	if l.o.Verbose || l.o.DryRun {
		l.say("%s", shellQuote(append([]string{"sycbuild", "sycl-post-link"}, syclpostlink.Args(po)...)))
	}
	if l.o.DryRun {
		// The split's modules are not known before it runs: the per-module
		// commands are shown for module <i>.
		return []*module{{file: filepath.Join(filepath.Dir(table), "module_<i>.ll"), index: "<i>"}}, nil
	}
	if err := os.MkdirAll(l.path(filepath.Dir(table)), 0o755); err != nil {
		return nil, err
	}
	var msgs bytes.Buffer
	if rc := syclpostlink.Run("sycl-post-link", l.dir, po, nil, clopt.Stdio{In: strings.NewReader(""), Out: &msgs, Err: &msgs}); rc != 0 {
		return nil, fmt.Errorf("sycl-post-link failed: %s", strings.TrimSpace(msgs.String()))
	}
	t, err := filetable.ReadFileIn(l.dir, table)
	if err != nil {
		return nil, err
	}
	code, _ := t.Column("Code")
	props, _ := t.Column("Properties")
	syms, _ := t.Column("Symbols")
	if len(code) != len(props) || len(code) != len(syms) {
		return nil, fmt.Errorf("%s: want the columns Code, Properties and Symbols", table)
	}
	mods := make([]*module, len(code))
	for i := range code {
		m := &module{file: code[i]}
		if m.symbols, err = readLines(l.path(syms[i])); err != nil {
			return nil, err
		}
		if l.o.Properties {
			b, err := os.ReadFile(l.path(props[i]))
			if err != nil {
				return nil, err
			}
			m.props = string(b)
		}
		mods[i] = m
	}
	return mods, nil
}

func readLines(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if s := sc.Text(); s != "" {
			lines = append(lines, s)
		}
	}
	return lines, sc.Err()
}
