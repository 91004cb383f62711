package syclpostlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestDebugInfoSplits compiles the translation units of testdata/debuginfo
// (helpers shared between kernels and between units, globals only some
// kernels use, a template value parameter naming a global, spec constants)
// with -g, at -O0 and -O2, with clang 15 (typed pointers,
// debug intrinsics), 19 and 22 (debug records) for spir64, marks their
// kernels and SYCL_EXTERNAL function with "sycl-module-id" as the SYCL front
// end does, links them, and splits the result per kernel and per source with
// both spec-constant modes. llvm-as and opt -passes=verify of the same LLVM
// must accept every module written, with its debug info intact (LLVM drops
// invalid debug info with only a warning, so any warning fails the test).
func TestDebugInfoSplits(t *testing.T) {
	srcs := []string{"vector_ops", "image_ops", "spec_consts"}
	for _, v := range []string{"15", "19", "22"} {
		t.Run("llvm"+v, func(t *testing.T) {
			clang := testenv.Tool(t, "clang-"+v)
			link := testenv.Tool(t, "llvm-link-"+v)
			as := testenv.Tool(t, "llvm-as-"+v)
			opt := testenv.Tool(t, "opt-"+v)
			for _, o := range []string{"-O0", "-O2"} {
				dir := t.TempDir()
				var lls []string
				for _, s := range srcs {
					ll := filepath.Join(dir, s+".ll")
					args := []string{"-target", "spir64-unknown-unknown", "-x", "clcpp", "-cl-std=clc++2021",
						"-g", o, "-S", "-emit-llvm", "-o", ll, filepath.Join("testdata", "debuginfo", s+".clcpp")}
					if v == "15" {
						args = append(args, "-Xclang", "-no-opaque-pointers")
					}
					run(t, clang, args...)
					markModuleID(t, ll, s+".cpp")
					lls = append(lls, ll)
				}
				linked := filepath.Join(dir, "linked.ll")
				run(t, link, append([]string{"-S", "-o", linked}, lls...)...)
				for _, split := range []string{"kernel", "source"} {
					for _, sc := range []string{"native", "emulation"} {
						name := o + "-" + split + "-" + sc
						out := filepath.Join(dir, name)
						if err := os.Mkdir(out, 0o755); err != nil {
							t.Fatal(err)
						}
						table := filepath.Join(out, "t.table")
						var stdout, stderr bytes.Buffer
						args := []string{"-S", "-split=" + split, "-symbols", "-properties", "-spec-const=" + sc, "-o", table, linked}
						if code := Main("sycl-post-link", args, stdio(&stdout, &stderr)); code != 0 || stderr.Len() > 0 {
							t.Fatalf("llvm%s %s: exit %d\n%s", v, name, code, stderr.String())
						}
						mods := codeColumn(t, table)
						if len(mods) < 2 {
							t.Fatalf("llvm%s %s: %d modules", v, name, len(mods))
						}
						lowered := false
						for _, m := range mods {
							checkModule(t, as, opt, m)
							text, _ := os.ReadFile(m)
							if bytes.Contains(text, []byte("SpecConstantValue")) {
								t.Errorf("%s: a spec-constant intrinsic is left", m)
							}
							lowered = lowered || bytes.Contains(text, []byte("@_Z20__spirv_SpecConstantii("))
						}
						if sc == "native" && !lowered {
							t.Errorf("llvm%s %s: no module has native spec constants", v, name)
						}
					}
				}
			}
		})
	}
}

// moduleAttrGroup finds the attribute group of a definition line.
var moduleAttrGroup = regexp.MustCompile(`\) [^(]*#(\d+) `)

// markModuleID adds "sycl-module-id"=id to the attribute groups of the
// kernels and of shared_helper in the clang output ll.
func markModuleID(t *testing.T, ll, id string) {
	t.Helper()
	b, err := os.ReadFile(ll)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	groups := map[string]bool{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "define ") || !(strings.Contains(l, " spir_kernel ") || strings.Contains(l, "shared_helper")) {
			continue
		}
		if m := moduleAttrGroup.FindStringSubmatch(l); m != nil {
			groups[m[1]] = true
		}
	}
	if len(groups) == 0 {
		t.Fatalf("%s: no kernel attribute group", ll)
	}
	for i, l := range lines {
		for g := range groups {
			if p := "attributes #" + g + " = { "; strings.HasPrefix(l, p) {
				lines[i] = p + `"sycl-module-id"="` + id + `" ` + l[len(p):]
			}
		}
	}
	if err := os.WriteFile(ll, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codeColumn returns the module files a file table lists.
func codeColumn(t *testing.T, table string) []string {
	t.Helper()
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(rows) == 0 || !strings.HasPrefix(rows[0], "[Code|") {
		t.Fatalf("%s: no Code column:\n%s", table, b)
	}
	var out []string
	for _, r := range rows[1:] {
		code, _, _ := strings.Cut(r, "|")
		out = append(out, code)
	}
	return out
}

// checkModule runs llvm-as and opt -passes=verify on a module and fails on
// an error or any warning other than opt's about the target machine, and
// when the module lost its debug info.
func checkModule(t *testing.T, as, opt, path string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(text, []byte("\n!llvm.dbg.cu = ")) || !bytes.Contains(text, []byte("!dbg ")) {
		t.Errorf("%s: the module lost its debug info", path)
	}
	for _, cmd := range [][]string{{as, "-o", os.DevNull, path}, {opt, "-passes=verify", "-disable-output", path}} {
		out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput()
		var bad []string
		for _, l := range strings.Split(string(out), "\n") {
			if l != "" && !strings.Contains(l, "failed to create target machine") {
				bad = append(bad, l)
			}
		}
		if err != nil || len(bad) > 0 {
			t.Errorf("%s %s: %v\n%s", filepath.Base(cmd[0]), path, err, strings.Join(bad, "\n"))
		}
	}
}

// run runs a tool and fails the test when it fails.
func run(t *testing.T, tool string, args ...string) {
	t.Helper()
	if out, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, strings.Join(args, " "), err, out)
	}
}
