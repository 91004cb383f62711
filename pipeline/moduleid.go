package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/dpcpp/moduleid"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/clopt"
)

// moduleIDInputs returns the files to link. Per-source split groups
// kernels by their "sycl-module-id", which
// DPC++'s front end writes and upstream clang's does not; once the inputs
// are linked, which translation unit defined what is lost. So when several
// inputs are linked for such a split, each first goes through sycbuild
// sycl-module-id, which writes <build_dir>/linked.<i>.ll: the input with
// every kernel and external function given "sycl-module-id"=<its
// source_filename>, or the input as it is when it already has the
// attribute. Otherwise the inputs themselves are linked: an input whose
// text holds "sycl-module-id" (DPC++'s) is linked as it is.
func (p *planner) moduleIDInputs(in *inputSet) []string {
	if len(in.files) < 2 || p.cfg.Split != configs.SplitPerSource {
		return in.files
	}
	out := make([]string, len(in.files))
	for i, f := range in.files {
		out[i] = f
		if hasModuleID(p.path(f)) {
			continue
		}
		o := p.g.File(filepath.Join(p.cfg.BuildDir, fmt.Sprintf("linked.%d.ll", i)), graph.Plain)
		opt := moduleid.Options{Input: f, Output: o.Path}
		p.add(p.inProcess(moduleid.Name+" "+f, moduleid.Name, moduleid.Args(opt),
			func(env graph.Env, stdio clopt.Stdio) int { return moduleid.Run(moduleid.Name, env.Dir, opt, stdio) },
			[]*graph.Node{p.g.File(f, graph.Plain)}, []*graph.Node{o}))
		out[i] = o.Path
	}
	return out
}

// hasModuleID reports whether the file's bytes hold the attribute's name,
// as DPC++'s textual IR does (in bitcode the name is not stored as plain
// bytes, so bitcode always goes through the tool, which then checks the
// module itself). An unreadable file is left to the link to report.
func hasModuleID(path string) bool {
	b, err := os.ReadFile(path)
	return err != nil || bytes.Contains(b, []byte(`"`+moduleid.Attr+`"`))
}
