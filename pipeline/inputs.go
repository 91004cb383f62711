package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/diag"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/toolchain"
)

// inputSet is the device inputs that hold device code, and what they say
// about the LLVM that must process them.
type inputSet struct {
	files  []string
	infos  []*toolchain.IRInfo
	llvm   int    // LLVM generation of the IR; 0: LLVM 15 and 19 both read it
	why    string // the input and reason that decided llvm
	triple string // the first known target triple
	needs  bool   // several inputs: llvm-link must run (sycl-post-link reads one input, text or bitcode, itself)
}

// inputs inspects every input (no LLVM runs; an input unchanged since the
// last build is not read again, see VersionCache.ScanIR): an input that is
// not IR is an error at its own line and column; valid IR without device
// code is left out with a note (a translation unit with no kernel and no
// SYCL_EXTERNAL function, as many CPU-only files of an application are);
// inputs needing different LLVM generations are an error.
func (p *planner) inputs() (*inputSet, error) {
	set := &inputSet{}
	var errs errorList
	for i, path := range p.cfg.Inputs {
		loc := p.cfg.Input(i)
		info, err := p.opt.Versions.ScanIR(p.path(path))
		if err != nil {
			var pe *fs.PathError
			var se *toolchain.ScanError
			switch {
			case errors.As(err, &se):
				// The input's own position, named as the config names it;
				// the config's position says which input.
				file := se.File
				if file == p.path(path) {
					file = path
				}
				errs = append(errs, &diag.Error{File: file, Line: se.Line, Col: se.Col,
					Msg: fmt.Sprintf("%s (%s: %s)", se.Msg, loc.Position(), loc.Path)})
				continue
			case errors.As(err, &pe):
				err = fmt.Errorf("cannot read %s: %v", path, pe.Err)
			}
			errs = append(errs, loc.Error("%s: %v", loc.Path, err))
			continue
		}
		if !info.HasDeviceCode() {
			p.warn(fmt.Sprintf("note: skipping %s: it defines no kernel and no SYCL_EXTERNAL function", path))
			continue
		}
		if info.LLVM != 0 {
			if set.llvm != 0 && set.llvm != info.LLVM {
				errs = append(errs, loc.Error("%s: %s needs LLVM %d (%s), but %s; no one llvm-link reads both",
					loc.Path, path, info.LLVM, info.Why, set.why))
				continue
			}
			if set.llvm == 0 {
				set.llvm, set.why = info.LLVM, fmt.Sprintf("%s needs LLVM %d (%s)", path, info.LLVM, info.Why)
			}
		}
		if set.triple == "" {
			set.triple = info.Triple
		}
		set.files = append(set.files, path)
		set.infos = append(set.infos, info)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(set.files) == 0 {
		return nil, fmt.Errorf("%s: no input holds device code (every input was skipped)", p.cfg.InputList().Position())
	}
	set.needs = len(set.files) > 1
	return set, nil
}

// linkLLVM is the LLVM generation of the tools that link the inputs: the
// IR's own when it has one; otherwise 15 when a SPIR-V target will read the
// result (LLVM 19 would print attributes LLVM 15 cannot parse), else 19.
func (p *planner) linkLLVM(in *inputSet, targets []*target) int {
	if in.llvm != 0 {
		return in.llvm
	}
	for _, t := range targets {
		if t.spirv() {
			return 15
		}
	}
	return 19
}

// link adds the action that makes one textual module of the inputs, if
// one is needed, and returns the module's node.
func (p *planner) link(in *inputSet, link *toolchain.Tool) *graph.Node {
	if !in.needs {
		return p.g.File(in.files[0], graph.Plain)
	}
	out := p.g.File(filepath.Join(p.cfg.BuildDir, "linked.ll"), graph.Plain)
	files := p.moduleIDInputs(in)
	var ins []*graph.Node
	for _, f := range files {
		ins = append(ins, p.g.File(f, graph.Plain))
	}
	p.add(&graph.Action{
		Desc: string(link.Role) + " " + out.Path,
		Tool: graphTool(link),
		Argv: append([]string{link.Path}, toolchain.LLVMLinkArgs(out.Path, files, nil)...),
		In:   ins,
		Out:  []*graph.Node{out},
	})
	return out
}

// arch is the architecture part of a triple ("spir64" of
// "spir64-unknown-unknown").
func arch(triple string) string {
	a, _, _ := strings.Cut(triple, "-")
	return a
}
