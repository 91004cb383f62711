package postlink

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/internal/basedir"
	"github.com/sycbuild/sycbuild/llvmir"
	"github.com/sycbuild/sycbuild/split"
)

// usesBF16 reports whether a module declares a bfloat16 device-library
// function (SPIR targets only), so that the libraries must ship with it.
func (r *run) usesBF16(p *split.Part) bool {
	for _, e := range r.bf16Decls {
		if p.Written(e) && !p.Defines(e) {
			return true
		}
	}
	return false
}

// findBF16Decls lists the module's bfloat16 device-library declarations
// (SPIR targets only), once, so that each module's check is cheap.
func (r *run) findBF16Decls() {
	if !strings.Contains(r.m.Triple, "spir") {
		return
	}
	for _, e := range r.m.Entities {
		if split.IsBF16DeviceLibDecl(e) {
			r.bf16Decls = append(r.bf16Decls, e)
		}
	}
}

// bf16Libs are the bfloat16 device libraries, in the order they get IDs.
var bf16Libs = []string{"libsycl-fallback-bfloat16.bc", "libsycl-native-bfloat16.bc"}

// saveDeviceLibs adds the bfloat16 device libraries as modules of their own
// (IDs id and id+1), written as they are. A library that cannot be loaded
// is reported with the reference's note and skipped. The libraries are
// bitcode, as DPC++ installs them (textual IR is read too).
func (r *run) saveDeviceLibs(id int) error {
	for k, name := range bf16Libs {
		path := filepath.Join(r.o.DeviceLibDir, name)
		src, err := os.ReadFile(basedir.Resolve(r.io.Dir, path))
		var lib *llvmir.Module
		if err == nil {
			// As in the reference, a library that does not parse is one
			// that cannot be loaded: the note below, no error. It is read
			// by one goroutine, on the run's own token.
			lib, _ = llvmir.LoadWith(path, src, 1)
		}
		if lib == nil {
			r.diag.Note("fail to load bfloat16 device library modules")
			return nil
		}
		plan := lib.NewPlan()
		split.AddStatus(plan, split.SYCLOnly, false)
		row := Row{Code: r.naming.IR(false, id+k)}
		if err := r.out.writeModule(row.Code, plan); err != nil {
			return err
		}
		if r.o.Symbols {
			row.Symbols = r.naming.Sym(false, id+k)
			if err := r.out.writeBytes(row.Symbols, nil); err != nil {
				return err
			}
		}
		if r.o.Properties {
			return errorf("-properties: the property sets of bfloat16 device libraries are not implemented in this build")
		}
		for _, t := range r.tables {
			t.Add(row)
		}
	}
	return nil
}
