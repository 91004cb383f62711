package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// TestDPCPPDriverReplay runs examples/dpcpp/replay.sh: the commands the
// DPC++ driver runs for -fsycl-targets=spir64,spir64_gen, with bitcode
// between the steps, sycbuild's four tools found through a directory of
// links, and the real LLVM tools, ocloc and cc for the rest. The program it
// links must be handed every image the two tables name, each of the kind its
// target makes. It runs once with llc-19 and once with llc-22 compiling the
// wrapper's bitcode, with no llvm-as on PATH: the device compile's bitcode
// (llvm-as-15 of the quickstart, standing in for clang) is made first.
func TestDPCPPDriverReplay(t *testing.T) {
	for _, tool := range []string{"llvm-link-15", "llvm-spirv-15", "ocloc", "cc"} {
		testenv.Tool(t, tool)
	}
	as := testenv.Tool(t, "llvm-as-15")
	sycbuild := testenv.Sycbuild(t)
	root := testenv.RepoRoot(t)
	script := filepath.Join(root, "examples", "dpcpp", "replay.sh")
	deviceBC := filepath.Join(t.TempDir(), "device.bc")
	run(t, root, nil, as, filepath.Join(root, "examples", "quickstart", "device.ll"), "-o", deviceBC)
	path := "PATH=" + testenv.PathWithoutLLVMAs(t)
	for _, llc := range []string{"llc-19", "llc-22"} {
		t.Run(llc, func(t *testing.T) {
			testenv.Tool(t, llc)
			work := t.TempDir()
			out := run(t, work, []string{"LLC=" + llc, "DEVICE_BC=" + deviceBC, path}, "bash", script, sycbuild, work)

			// What the driver handed on between the steps is bitcode.
			for _, f := range []string{"linked.bc", "wrapper.bc"} {
				if b := readHead(t, filepath.Join(work, f)); !strings.HasPrefix(b, "BC\xc0\xde") {
					t.Errorf("%s is not LLVM bitcode", f)
				}
			}
			spir64 := tableRows(t, filepath.Join(work, "spir64.wrap.table"))
			gen := tableRows(t, filepath.Join(work, "gen.wrap.table"))
			if spir64 == 0 || gen == 0 {
				t.Fatalf("tables list %d spir64 and %d spir64_gen images", spir64, gen)
			}
			images := regexp.MustCompile(`(?m)^image \d+: target (\S+), format (\S+), \d+ bytes: (.*)$`).FindAllStringSubmatch(out, -1)
			count := map[string]int{}
			for _, m := range images {
				target, content := m[1], m[3]
				count[target]++
				want := map[string]string{"spir64": "a SPIR-V module", "spir64_gen": "an ELF device binary"}[target]
				if content != want {
					t.Errorf("a %s image is %s, want %s", target, content, want)
				}
			}
			if count["spir64"] != spir64 || count["spir64_gen"] != gen || len(images) != spir64+gen {
				t.Errorf("program saw %v images, the tables list %d spir64 and %d spir64_gen:\n%s", count, spir64, gen, out)
			}
			if !strings.Contains(out, "main: "+strconv.Itoa(spir64+gen)+" device images were registered before main") {
				t.Errorf("the program does not report %d registered images:\n%s", spir64+gen, out)
			}
		})
	}
}

func readHead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:min(len(b), 8)])
}

// tableRows counts the rows of a file table.
func tableRows(t *testing.T, path string) int {
	t.Helper()
	tb, err := filetable.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(tb.Rows)
}
