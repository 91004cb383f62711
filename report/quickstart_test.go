package report

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/pipeline"
	"github.com/sycbuild/sycbuild/toolchain"
)

// TestQuickstartInBrowser builds examples/quickstart (its optional
// targets where their tools are installed) with a report, and opens the
// report in headless Chromium. Its screenshot is the one docs/report.png
// shows.
func TestQuickstartInBrowser(t *testing.T) {
	testenv.Tool(t, "chromium") // before the build, which takes a while
	dir := t.TempDir()
	for _, f := range []string{"targets.yaml", "device.ll"} {
		b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "quickstart", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The build runs in the config's directory, the test's process stays
	// where it is: the report finds the images through Options.Dir.
	cfg, err := configs.Load(filepath.Join(dir, "targets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	plan, err := pipeline.New(cfg, pipeline.Options{
		Versions:   toolchain.LoadVersionCache(""),
		Warn:       func(s string) { warnings = append(warnings, "sycbuild: "+s) },
		ConfigFile: filepath.Join(dir, "targets.yaml"),
	})
	if err != nil {
		t.Fatal(err)
	}
	config, tools := BuildSummary(cfg, plan)
	r := New(Options{Title: "examples/quickstart → " + plan.Output, Dir: cfg.Dir, Config: config, Tools: tools})
	for _, w := range warnings {
		r.Message(w)
	}
	buildDir := filepath.Join(cfg.Dir, cfg.BuildDir)
	if _, err := plan.Graph.Build(context.Background(), graph.Options{
		Pool: jobs.NewPool(2), Observer: r, Dir: cfg.Dir,
		StateDir: filepath.Join(buildDir, pipeline.StateDirName), LockDir: buildDir,
	}); err != nil {
		t.Fatalf("build: %v", err)
	}
	page := filepath.Join(dir, "report.html")
	if err := r.WriteFile(page); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range plan.Targets {
		if !strings.Contains(string(html), `<tr data-target="`+string(tg.Kind)+`">`) {
			t.Errorf("no row for target %s", tg.Kind)
		}
	}
	if !strings.Contains(string(html), `<p class="none">No failures.</p>`) {
		t.Errorf("the page shows failures of a build that succeeded")
	}
	// What was built, and with which tools.
	build := section(t, string(html), "build")
	for _, want := range []string{"<tr><th>inputs</th><td>device.ll</td></tr>", "<tr><th>split</th><td>per_kernel</td></tr>", "<tr><th>target llvm_ir</th><td>llvm_ir; spec constants native</td></tr>"} {
		if !strings.Contains(build, want) {
			t.Errorf("the build summary lacks %q:\n%s", want, build)
		}
	}
	if testenv.Want(t, "the report's tool versions (the quickstart's spir64_gen target)", "llvm-as-15", "llvm-spirv-15", "ocloc") {
		for _, want := range []string{"<tr><th>target spir64_gen</th><td>spir64_gen; devices pvc, acm-g10; SPIR-V by translator; spec constants emulation</td></tr>", "<tr><th><code>ocloc</code></th><td>ocloc: ocloc driver ", "<tr><th><code>llvm-spirv-15</code></th><td>llvm-spirv: "} {
			if !strings.Contains(build, want) {
				t.Errorf("the build summary lacks %q:\n%s", want, build)
			}
		}
	}
	// llvm_ir embeds the split's 4 modules, which its row counts.
	if !regexp.MustCompile(`<tr data-target="llvm_ir"><td>llvm_ir</td><td class="num">\d+</td><td class="none">[^<]*</td><td class="num">4</td><td class="none">embedded as split</td><td class="num" data-v="[1-9]\d*">`).Match(html) {
		t.Errorf("the llvm_ir row does not count its 4 modules and their size:\n%s", section(t, string(html), "targets"))
	}
	// The modules' images are the real compilers' outputs, sized.
	if testenv.Want(t, "the report's module images (the quickstart's SPIR-V and ocloc targets)", "llvm-as-15", "llvm-spirv-15", "ocloc") {
		modules := section(t, string(html), "modules")
		if n := strings.Count(modules, `<tr data-module="1">`); n != 8 {
			t.Errorf("%d module rows, want 4 modules × 2 targets", n)
		}
		if strings.Contains(modules, `data-v="-1">–</td><td><code>`) {
			t.Errorf("a module's image has no size:\n%s", modules)
		}
		// Each module names its kernel, demangled, the symbol its tooltip.
		for _, k := range []string{"main::VecAdd", "main::VecScale", "main::Threshold", "main::Clamp"} {
			if n := strings.Count(modules, `>`+k+`</td>`); n != 2 {
				t.Errorf("kernel %s named in %d module rows, want 2 (one per target):\n%s", k, n, modules)
			}
		}
		if !strings.Contains(modules, `title="_ZTSZ4mainE6VecAdd">main::VecAdd</td>`) {
			t.Errorf("the kernel's symbol is not its cell's tooltip:\n%s", modules)
		}
	}

	shot := filepath.Join(dir, "report.png")
	checkDOM(t, browse(t, page, shot))
	checkShot(t, shot)
	keepArtifact(t, page, "report-quickstart.html")
	keepArtifact(t, shot, "report-quickstart.png")
}
