package pipeline_test

import (
	"strings"
	"testing"
	"time"
)

// standInOcloc is an ocloc that fails like a real one does on some
// kernels, with status 245 and no message, when the SPIR-V it is given
// holds the kernel named in $BAD_KERNEL (or one of the SPIR-V files of an
// "ocloc multi" list does: the whole batch fails, as ocloc multi does);
// otherwise it runs the real ocloc.
const standInOcloc = `#!/bin/sh
for a; do
  case "$a" in
  *.spv) if grep -q "$BAD_KERNEL" "$a"; then exit 245; fi ;;
  *.txt) for f in $(sed -n 's/.*-file \([^ ]*\).*/\1/p' "$a"); do
      if grep -q "$BAD_KERNEL" "$f"; then exit 245; fi
    done ;;
  esac
done
exec ocloc "$@"
`

const aotFailConfig = `inputs: [device.ll]
split: per_source
tools: {ocloc: ./ocloc-standin}
targets:
  - kind: spir64_gen
    devices: [pvc]
    spirv: translator
`

func aotFailProject(t *testing.T, extra string) *project {
	p := newProject(t, "p", aotFailConfig+extra, "device.ll")
	p.write("ocloc-standin", standInOcloc)
	p.env = append(p.env, "BAD_KERNEL=_ZTSZ4mainE6VecAdd")
	return p
}

// TestAOTIsolation: ocloc fails on a module of two kernels; the build
// names the kernel that fails alone, with the command's status, and with
// -k builds the other module.
func TestAOTIsolation(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc")
	p := aotFailProject(t, "")
	_, stderr, code := p.run("-k")
	if code == 0 {
		t.Fatalf("the build succeeded:\n%s", stderr)
	}
	for _, want := range []string{
		"(exit status 245)",
		"isolated: 1 of its 2 kernels fail alone: _ZTSZ4mainE6VecAdd\n",
		"the first alone:",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the failure does not say %q:\n%s", want, stderr)
		}
	}
	if !p.exists("out/spir64_gen/module_1.bin") || p.exists("out/spir64_gen/module_0.bin") {
		t.Errorf("with -k the good module is built and the bad one is not")
	}
}

// TestAOTFallback: with aot_fallback: spirv, in the module whose ocloc
// fails only the kernel that fails alone is embedded as SPIR-V, in an
// image of its own, loudly; the module's other kernel and the other module
// stay native. The program's runtime registration sees exactly that. A
// rebuild tries the module again and says so again.
func TestAOTFallback(t *testing.T) {
	t.Run("alone", func(t *testing.T) { testAOTFallback(t) })
	// The two modules' compiles as one ocloc multi, which fails: each then
	// runs alone, as above.
	t.Run("batch", func(t *testing.T) { testAOTFallback(t, "-batch", "2") })
}

func testAOTFallback(t *testing.T, args ...string) {
	needTools(t, "llvm-spirv-15", "ocloc", "cc")
	p := aotFailProject(t, "    aot_fallback: spirv\n")
	stderr, _ := p.build(args...)
	for _, want := range []string{
		"warning: [spir64_gen] ocloc out/spir64_gen/module_0.bc: ocloc failed (exit status 245); 1 of its 2 kernels fail alone (_ZTSZ4mainE6VecAdd) and become SPIR-V images of their own, to be compiled when the program runs; 1 stays ahead-of-time",
		"sycbuild: 1 module fell back to SPIR-V",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the build does not say %q:\n%s", want, stderr)
		}
	}
	imgs := strings.Join(p.images(), "\n")
	for _, want := range []string{
		"target spir64_gen, format native, ", "kernels: _ZTSZ4mainE8VecScale\n",
		"target spir64_gen, format SPIR-V, ", "kernels: _ZTSZ4mainE6VecAdd\n",
		"target spir64_gen, format native, ", "kernels: _ZTSZ4mainE9Threshold _ZTSZ4mainE5Clamp",
	} {
		i := strings.Index(imgs, want)
		if i < 0 {
			t.Fatalf("the program does not see %q next:\n%s", want, strings.Join(p.images(), "\n"))
		}
		imgs = imgs[i+len(want):]
	}
	// Nothing changed, but a fallback is never recorded as the job's
	// result: the module that fell back is tried again and announced
	// again; the one that compiled is up to date.
	if stderr, s := p.build(args...); s.jobsRan != 1 || s.jobsCached != 1 || !strings.Contains(stderr, "sycbuild: 1 module fell back to SPIR-V") {
		t.Errorf("the rebuild: %+v\n%s", s, stderr)
	}
}

// TestAOTFallbackEverywhere: when every module of the target falls back,
// nothing would be compiled ahead of time: the build fails before the
// wrapper, unless aot_fallback: spirv-all says that is wanted.
func TestAOTFallbackEverywhere(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc", "cc")
	p := aotFailProject(t, "    aot_fallback: spirv\n")
	p.env = append(p.env, "BAD_KERNEL=_ZTSZ4main")
	_, stderr, code := p.run()
	if code != 1 || !strings.Contains(stderr, "[spir64_gen] ocloc: every one of its 2 modules fell back to SPIR-V, so nothing is compiled ahead of time (a device or an option the compiler refuses does that); aot_fallback: spirv-all accepts it") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	if p.exists("out/device_images.o") {
		t.Errorf("the output was written")
	}
	p.write("targets.yaml", aotFailConfig+"    aot_fallback: spirv-all\n")
	p.build()
	if imgs := strings.Join(p.images(), "\n"); strings.Count(imgs, "format SPIR-V") != 2 {
		t.Errorf("spirv-all: want two SPIR-V images:\n%s", imgs)
	}
}

// TestAOTHang: a hung ocloc is stopped at its timeout, said once, and its
// module is not tried kernel by kernel (each would hang as long): with
// -k, the build takes about one timeout per module, not one per kernel.
func TestAOTHang(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc")
	p := newProject(t, "p", aotFailConfig+"timeouts: {ocloc: 1s}\n", "device.ll")
	p.write("ocloc-standin", "#!/bin/sh\n[ \"$1\" = compile ] && [ \"$2\" != --help ] && sleep 30\nexec ocloc \"$@\"\n")
	start := time.Now()
	_, stderr, code := p.run("-k", "-j", "1")
	took := time.Since(start)
	if code != 1 || strings.Count(stderr, "timed out") != 2 || strings.Contains(stderr, "isolated") {
		t.Errorf("exit %d; want 1, \"timed out\" once per module (2) and no isolation:\n%s", code, stderr)
	}
	if took > 6*time.Second {
		t.Errorf("the build took %v: want about one 1s timeout per module", took)
	}
}
