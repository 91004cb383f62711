// Command syclbench times sycbuild against upstream LLVM's SYCL device
// linker, clang-sycl-linker-22, on the same bitcode, in one run on one
// machine:
//
//	go run ./bench/syclbench                      # 1000 and 5000 kernels, -j 2
//	go run ./bench/syclbench -kernels 5000 -j 16 -dir /dev/shm/sb
//	go run ./bench/syclbench -kernels 5000 -run per_kernel   # only that command
//
// For each size it writes the generator's benchmark module (internal/irgen,
// scaled to that many kernels, without specialization constants, which
// clang-sycl-linker does not lower), assembles it with llvm-as-22 and runs,
// once each, from a clean state:
//
//   - clang-sycl-linker-22 --triple=spirv64: link and SPIR-V code generation
//     of the whole module, one image, in one process;
//   - sycbuild with split: off and a spir64 target on LLVM's SPIR-V backend
//     (spirv: llvm-backend, wrapper: offload-binary): the same work, plus
//     sycl-post-link's symbol table and properties and spirv-val;
//   - the same with split: per_kernel: one image per kernel, compiled in
//     parallel on -j jobs.
//
// It prints each run's wall time, CPU time (user + system of the process
// and every process it waited for), peak resident memory (of the largest
// single process) and SPIR-V bytes, with the wall-time ratio to
// clang-sycl-linker-22. A command that fails (killed for memory: the
// whole-module commands need about 3 GiB at 1000 kernels and more than
// 23 GiB at 5000) is shown as failed, and the run goes on.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/jobs"
)

// writeModule writes the generator's benchmark module scaled to n kernels,
// without specialization constants (which clang-sycl-linker does not lower).
func writeModule(path string, n int) error {
	c := irgen.Scaled(n)
	c.SpecConsts = 0
	return irgen.WriteFile(path, c)
}

func main() {
	sizes := flag.String("kernels", "1000,5000", "comma-separated module sizes (kernels)")
	jobs := flag.Int("j", 2, "sycbuild's parallel jobs")
	only := flag.String("run", "clang-sycl-linker,off,per_kernel", "comma-separated commands to run: clang-sycl-linker, off, per_kernel")
	keep := flag.String("dir", "", "work directory (default: a temporary one, removed); the outputs are written there")
	binary := flag.String("sycbuild", "", "sycbuild binary to time (default: built from this tree)")
	flag.Parse()
	if err := run(*sizes, *jobs, *keep, *binary, *only); err != nil {
		fmt.Fprintln(os.Stderr, "syclbench:", err)
		os.Exit(1)
	}
}

// measurement is one command's run.
type measurement struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
	spirv     int64 // bytes of SPIR-V written
	images    int
}

// config is sycbuild's config for the module in (relative to the work
// directory) with the given split.
func config(in, split string) string {
	return "inputs: [" + in + "]\nbuild_dir: " + split + "\nsplit: " + split +
		"\nwrapper: offload-binary\ntargets:\n  - kind: spir64\n    spirv: llvm-backend\n"
}

func run(sizes string, jobs int, dir, bin, only string) error {
	want := map[string]bool{}
	for _, o := range strings.Split(only, ",") {
		want[strings.TrimSpace(o)] = true
	}
	for _, t := range []string{"llvm-as-22", "clang-sycl-linker-22", "llc-22"} {
		if _, err := exec.LookPath(t); err != nil {
			return fmt.Errorf("%s not found: %v", t, err)
		}
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "syclbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var err error
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if bin == "" {
		bin = filepath.Join(dir, "sycbuild")
		build := exec.Command("go", "build", "-o", bin, "./cmd/sycbuild")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if err := build.Run(); err != nil {
			return fmt.Errorf("building sycbuild: %v", err)
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs, %s/%s; sycbuild -j %d; files in %s\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, jobs, dir)
	fmt.Println("| kernels | bitcode | command | wall | CPU | peak RSS | images | SPIR-V bytes | wall / clang-sycl-linker |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("bad size %q", s)
		}
		ll := fmt.Sprintf("k%d.ll", n)
		bc := fmt.Sprintf("k%d.bc", n)
		if err := writeModule(filepath.Join(dir, ll), n); err != nil {
			return err
		}
		if _, err := measure(dir, []string{"llvm-as-22", ll, "-o", bc}); err != nil {
			return err
		}
		fi, err := os.Stat(filepath.Join(dir, bc))
		if err != nil {
			return err
		}
		os.Remove(filepath.Join(dir, ll))
		size := fmt.Sprintf("%.1f MiB", float64(fi.Size())/(1<<20))

		var ref measurement
		if want["clang-sycl-linker"] {
			out := fmt.Sprintf("k%d.syclbin", n)
			ref, err = measure(dir, []string{"clang-sycl-linker-22", "--triple=spirv64", bc, "-o", out})
			if err == nil {
				// clang-sycl-linker's output is one OffloadBinary holding the
				// image; it also leaves the image as <output>_0.spv.
				ref.spirv, err = spirvBytes(dir, strings.TrimSuffix(out, ".syclbin")+"_*.spv")
				ref.images = 1
			}
			row(n, size, "`clang-sycl-linker-22 --triple=spirv64`", ref, ref, err)
			if err != nil {
				ref = measurement{}
			}
		}
		for _, split := range []string{"off", "per_kernel"} {
			if !want[split] {
				continue
			}
			cfg := fmt.Sprintf("k%d-%s.yaml", n, split)
			if err := os.WriteFile(filepath.Join(dir, cfg), []byte(config(bc, split)), 0o644); err != nil {
				return err
			}
			if err := os.RemoveAll(filepath.Join(dir, split)); err != nil {
				return err
			}
			m, err := measure(dir, []string{bin, "-config", cfg, "-j", strconv.Itoa(jobs)})
			if err == nil {
				m.spirv, err = spirvBytes(dir, filepath.Join(split, "spir64", "*.spv"))
				spv, _ := filepath.Glob(filepath.Join(dir, split, "spir64", "*.spv"))
				m.images = len(spv)
			}
			row(n, size, "sycbuild `split: "+split+"`, llc-22", m, ref, err)
		}
	}
	return nil
}

// row prints one command's row; a command that failed (killed for
// memory, say) is shown with its failure, what it ran for and its peak
// RSS, and is no reference for ratios.
func row(n int, size, what string, m, ref measurement, err error) {
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		fmt.Printf("| %d | %s | %s | failed (%s) after %.2f s | %.2f s | %.0f MiB | | | |\n", n, size, what,
			msg, m.wall.Seconds(), m.cpu.Seconds(), float64(m.maxRSS)/(1<<20))
		return
	}
	ratio := "—"
	if ref.wall > 0 {
		ratio = fmt.Sprintf("%.2f×", m.wall.Seconds()/ref.wall.Seconds())
	}
	fmt.Printf("| %d | %s | %s | %.2f s | %.2f s | %.0f MiB | %d | %d | %s |\n", n, size, what,
		m.wall.Seconds(), m.cpu.Seconds(), float64(m.maxRSS)/(1<<20), m.images, m.spirv, ratio)
}

// spirvBytes sums the sizes of the files matching pattern under dir.
func spirvBytes(dir, pattern string) (int64, error) {
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return 0, err
		}
		n += fi.Size()
	}
	return n, nil
}

// measure runs argv in dir and returns its wall time, CPU time and peak
// RSS (wait4's, which covers the process and the children it waited for).
func measure(dir string, argv []string) (measurement, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	m := measurement{wall: time.Since(start)}
	if ps := cmd.ProcessState; ps != nil {
		m.cpu = ps.UserTime() + ps.SystemTime()
		m.maxRSS = jobs.PeakRSS(ps)
	}
	if err != nil {
		return m, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(stderr.String()))
	}
	return m, nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
