package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/atomicfile"
	"github.com/sycbuild/sycbuild/postlink"
)

// toolMemory is a conservative guess of each tool's peak memory, for the
// memory budget before the build log has recorded a run of it.
var toolMemory = map[configs.Tool]int64{
	configs.ToolLLVMLink:  1 << 30,
	configs.ToolLLVMSPIRV: 512 << 20,
	configs.ToolSPIRVVal:  256 << 20,
	configs.ToolOcloc:     2 << 30,
	configs.ToolLLC:       1 << 30,
	configs.ToolPtxas:     1 << 30,
	configs.ToolFatbinary: 256 << 20,
	configs.ToolLLD:       256 << 20,
	configs.ToolBundler:   128 << 20,
}

// runOptions sets how a target's module jobs run and fail: each step's
// timeout and memory guess; for spir64_gen with aot_fallback: spirv, the
// fallback from ocloc to the SPIR-V; and for the ahead-of-time kinds, unless
// every module holds one kernel already, the isolation of the kernels that
// make a module's compile fail.
func (p *planner) runOptions(tc *configs.Target, f *graph.Fanout) {
	ocloc, spv := -1, -1
	for k, s := range f.Steps {
		role := configs.Tool(s.Tool.Name)
		s.Tool.Timeout = p.cfg.Timeout(tc, role)
		s.Tool.Memory = toolMemory[role]
		switch {
		case role == configs.ToolOcloc:
			ocloc = k
		case s.Out != nil && s.Out.Ext == "spv":
			spv = k
		}
	}
	aot := tc.Kind == configs.SPIR64Gen || tc.Kind == configs.NVPTX64 || tc.Kind == configs.AMDGCN
	if aot && p.cfg.Split != configs.SplitPerKernel {
		f.Isolate = isolateKernels
	}
	if tc.AOTFallback != "" && ocloc > spv && spv >= 0 {
		f.Fallback = &graph.Fallback{Step: ocloc, From: spv, All: tc.AOTFallback == configs.FallbackSPIRVAll}
		if f.Isolate != nil {
			f.Fallback.Parts = kernelImages
		}
	}
}

// kernelImages writes the image of a module that fell back by kernel
// (graph.Fallback.Parts): a file table of its kernels' images, one row
// each with a Symbols file of its own, which the wrapper embeds as images
// of their own (offloadwrapper's --spirv-fallback), every one with the
// module's properties.
func kernelImages(dir, out string, images []graph.PartImage) ([]string, error) {
	t := &filetable.Table{Columns: []string{"Code", "Symbols"}}
	var wrote []string
	for _, img := range images {
		sym := strings.TrimSuffix(img.Path, filepath.Ext(img.Path)) + ".sym"
		names := strings.Join(strings.Split(img.Name, ", "), "\n") + "\n"
		if err := atomicfile.Write(filepath.Join(dir, sym), func(w io.Writer) error { _, err := io.WriteString(w, names); return err }); err != nil {
			return wrote, err
		}
		wrote = append(wrote, sym)
		t.Rows = append(t.Rows, []string{img.Path, sym})
	}
	return wrote, atomicfile.Write(filepath.Join(dir, out), func(w io.Writer) error { return t.Write(w, true) })
}

// fallsBack reports whether some target may embed SPIR-V for a module of a
// native target (the wrapper then looks at each such image).
func (p *planner) fallsBack() bool {
	for _, t := range p.cfg.Targets {
		if t.AOTFallback != "" {
			return true
		}
	}
	return false
}

// isolateKernels splits one module of a failed chain per kernel, in
// process (graph.Fanout.Isolate): sycl-post-link's own per-kernel split of
// that module alone, written as the module was (bitcode for a .bc module,
// which the chain's first tool may read only as bitcode; text otherwise),
// with each part's kernels (its .sym file) as its name.
func isolateKernels(dir, item, outDir string) ([]graph.Part, error) {
	table := filepath.Join(outDir, "part.table")
	o := &postlink.Options{Input: item, Outputs: []postlink.Output{{File: table}}, Split: postlink.SplitKernel,
		SplitGiven: true, Assembly: filepath.Ext(item) != ".bc", Symbols: true, EmitOnlyKernelsAsEPs: true}
	var msgs bytes.Buffer
	rio := postlink.IO{Argv0: "sycl-post-link", Dir: dir, Stdout: &msgs, Stderr: &msgs, Jobs: 1}
	if !o.Assembly {
		rio.Assemble = syclpostlink.Assembler(dir, item)
	}
	if err := postlink.Run(o, rio); err != nil {
		return nil, fmt.Errorf("%v %s", err, bytes.TrimSpace(msgs.Bytes()))
	}
	t, err := filetable.ReadFileIn(dir, table)
	if err != nil {
		return nil, err
	}
	code, syms := t.ColumnIndex("Code"), t.ColumnIndex("Symbols")
	if code < 0 || syms < 0 {
		return nil, fmt.Errorf("%s: no Code or Symbols column", table)
	}
	var parts []graph.Part
	for _, row := range t.Rows {
		names, err := os.ReadFile(filepath.Join(dir, row[syms])) // relative: made under outDir
		if err != nil {
			return nil, err
		}
		// A .sym file holds one name per line; a name may hold spaces.
		kernels := strings.Split(strings.TrimSuffix(string(names), "\n"), "\n")
		parts = append(parts, graph.Part{Name: strings.Join(kernels, ", "), Path: row[code]})
	}
	return parts, nil
}
