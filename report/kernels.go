package report

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/graph"
)

// kernelList is a module's kernels as the page shows them: demangled, and
// as the symbol table names them (the cell's tooltip).
type kernelList struct {
	Names, Mangled string
}

// maxKernelsShown is how many of a module's kernels its row names.
const maxKernelsShown = 8

// kernels reads each job's module's symbol table (the split writes
// module_<i>.sym beside module_<i>.ll) and demangles its kernels. A module
// without one shows none.
func (r *Report) kernels(events []record) map[string]kernelList {
	out := map[string]kernelList{}
	for i := range events {
		e := &events[i]
		if e.kind != graph.KindJob || e.item == "" {
			continue
		}
		if _, ok := out[e.item]; ok {
			continue
		}
		out[e.item] = r.readKernels(strings.TrimSuffix(e.item, filepath.Ext(e.item)) + ".sym")
	}
	return out
}

// readKernels reads a .sym file (relative to the report's Dir).
func (r *Report) readKernels(name string) kernelList {
	path := name
	if !filepath.IsAbs(path) && r.opt.Dir != "" {
		path = filepath.Join(r.opt.Dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return kernelList{}
	}
	syms := strings.Fields(string(data))
	names := make([]string, 0, min(len(syms), maxKernelsShown+1))
	for i, s := range syms {
		if i == maxKernelsShown {
			names = append(names, "… "+strconv.Itoa(len(syms)-i)+" more")
			break
		}
		names = append(names, KernelName(s))
	}
	return kernelList{Names: strings.Join(names, ", "), Mangled: strings.Join(syms, " ")}
}

// KernelName is a kernel's name as its source spells it: a SYCL kernel's
// symbol is the typeinfo name of its kernel name type (_ZTSZ4mainE6VecAdd:
// main::VecAdd), demangled by the Itanium rules; a name that is not
// mangled stays as it is.
func KernelName(sym string) string {
	d, err := demangle.ToString(sym)
	if err != nil {
		return sym
	}
	return strings.TrimPrefix(d, "typeinfo name for ")
}

// splitTable is what a target without module jobs embeds (llvm_ir: the
// split's modules themselves): its table's rows and their files' sizes.
type splitTable struct {
	modules int
	bytes   int64
}

// splitTables reads, for each target whose events hold no module job, the
// file table its actions wrote last (the split's), so that its row counts
// the modules it embeds.
func (r *Report) splitTables(events []record) map[string]splitTable {
	hasJobs := map[string]bool{}
	table := map[string]string{}
	for i := range events {
		e := &events[i]
		switch {
		case e.kind == graph.KindJob || e.kind == graph.KindFanout:
			hasJobs[e.target] = true
		case e.kind == graph.KindAction && e.outcome != graph.Failed && e.target != "":
			for _, o := range e.outputs {
				if strings.HasSuffix(o, ".table") {
					table[e.target] = o
				}
			}
		}
	}
	out := map[string]splitTable{}
	for target, name := range table {
		if hasJobs[target] {
			continue
		}
		t, err := filetable.ReadFileIn(r.opt.Dir, name)
		if err != nil {
			continue
		}
		st := splitTable{modules: len(t.Rows)}
		if code := t.ColumnIndex("Code"); code >= 0 {
			for _, row := range t.Rows {
				if fi, err := os.Stat(r.path(row[code])); err == nil {
					st.bytes += fi.Size()
				}
			}
		}
		out[target] = st
	}
	return out
}

// path is a file of the build as this process opens it.
func (r *Report) path(name string) string {
	if !filepath.IsAbs(name) && r.opt.Dir != "" {
		return filepath.Join(r.opt.Dir, name)
	}
	return name
}
