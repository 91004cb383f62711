package llvmir

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// assemble runs the real assembler (llvm-as-19 or llvm-as-15) on text and
// fails the test when it rejects it.
func assemble(t *testing.T, tool string, name string, text []byte, extra ...string) {
	t.Helper()
	as := testenv.Tool(t, tool)
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, extra...), "-o", os.DevNull, path)
	if out, err := exec.Command(as, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s rejects %s: %v\n%s\n--- module ---\n%s", tool, name, err, out, text)
	}
}

// assembles reports whether the real assembler accepts text.
func assembles(t *testing.T, tool string, text []byte, extra ...string) bool {
	t.Helper()
	as := testenv.Tool(t, tool)
	path := filepath.Join(t.TempDir(), "probe.ll")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, extra...), "-o", os.DevNull, path)
	return exec.Command(as, args...).Run() == nil
}

// closure returns the global values reachable from roots through
// references, not following the bodies of functions in declare.
func closure(roots []*Entity, declare map[*Entity]bool) map[*Entity]bool {
	seen := map[*Entity]bool{}
	work := append([]*Entity(nil), roots...)
	for _, r := range roots {
		seen[r] = true
	}
	for len(work) > 0 {
		e := work[len(work)-1]
		work = work[:len(work)-1]
		if declare[e] {
			continue
		}
		for _, g := range e.Globals {
			if !seen[g] {
				seen[g] = true
				work = append(work, g)
			}
		}
	}
	return seen
}

// filterNamedMD keeps, in every named metadata of the plan, only the
// operands whose nodes reach no dropped global.
func filterNamedMD(m *Module, p *Plan, keep map[*Entity]bool) {
	for _, e := range m.Entities {
		if e.Kind != KindNamedMD {
			continue
		}
		var ops []string
		changed := false
		for _, op := range e.Named.Ops {
			if op.Kind != MDRef {
				ops = append(ops, "!"+op.Ref.Name)
				continue
			}
			ok := true
			for _, g := range m.MDGlobals(op.Ref) {
				if !keep[g] {
					ok = false
				}
			}
			if ok {
				ops = append(ops, "!"+op.Ref.Name)
			} else {
				changed = true
			}
		}
		if changed {
			p.SetNamedMDOps(e, ops)
		}
	}
}
