// Command postlinkbench times sycbuild's sycl-post-link against LLVM on
// the synthetic SYCL module of bench/gen, in one run on one machine:
//
//	go run ./bench/postlinkbench            # 5000 and 13,000 kernels
//	go run ./bench/postlinkbench -kernels 5000 -runs 3 -dir /dev/shm/plb
//
// For each size it writes the module, then runs, alternately and -runs
// times each, "sycbuild sycl-post-link -split=kernel -symbols -S" (a
// module and a symbol file per kernel, and the table) and "llvm-as-19" on
// the same file (LLVM's bare parse and write, which any LLVM-based splitter
// pays at least once), and prints the best wall time of each, their ratio
// and each one's peak resident memory.
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
	"syscall"
	"time"

	"github.com/sycbuild/sycbuild/bench/gen"
)

func main() {
	sizes := flag.String("kernels", "5000,13000", "comma-separated module sizes (kernels)")
	runs := flag.Int("runs", 3, "timed runs of each command per size (the best counts)")
	keep := flag.String("dir", "", "work directory (default: a temporary one, removed); the outputs are written there")
	binary := flag.String("sycbuild", "", "sycbuild binary to time (default: built from this tree)")
	flag.Parse()
	if err := run(*sizes, *runs, *keep, *binary); err != nil {
		fmt.Fprintln(os.Stderr, "postlinkbench:", err)
		os.Exit(1)
	}
}

// measurement is one command's best run.
type measurement struct {
	wall   time.Duration
	maxRSS int64 // bytes
}

func run(sizes string, runs int, dir, bin string) error {
	llvmAs, err := exec.LookPath("llvm-as-19")
	if err != nil {
		return fmt.Errorf("llvm-as-19 not found: %v", err)
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "postlinkbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
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
	}
	fmt.Printf("machine: %d CPUs, %s/%s; files in %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, dir)
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("bad size %q", s)
		}
		in := filepath.Join(dir, fmt.Sprintf("k%d.ll", n))
		if err := gen.WriteFile(in, gen.Scaled(n)); err != nil {
			return err
		}
		st, err := os.Stat(in)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, "out")
		split := []string{bin, "sycl-post-link", "-split=kernel", "-symbols", "-S", in, "-o", filepath.Join(out, "out.table")}
		as := []string{llvmAs, in, "-o", filepath.Join(dir, "out.bc")}
		var best [2]measurement
		nfiles := 0
		for r := 0; r < runs; r++ {
			for i, argv := range [][]string{split, as} {
				os.RemoveAll(out)
				if err := os.Mkdir(out, 0o755); err != nil {
					return err
				}
				m, err := measure(argv)
				if err != nil {
					return err
				}
				if i == 0 {
					files, _ := os.ReadDir(out)
					nfiles = len(files)
				}
				if r == 0 || m.wall < best[i].wall {
					best[i].wall = m.wall
				}
				best[i].maxRSS = max(best[i].maxRSS, m.maxRSS)
			}
		}
		os.RemoveAll(out)
		mb := func(b int64) float64 { return float64(b) / (1 << 20) }
		fmt.Printf("\n%d kernels: input %.1f MiB, %d output files\n", n, mb(st.Size()), nfiles)
		fmt.Printf("  sycbuild sycl-post-link -split=kernel -symbols -S   %7.2f s   peak RSS %6.0f MiB (%.2f× input)\n",
			best[0].wall.Seconds(), mb(best[0].maxRSS), float64(best[0].maxRSS)/float64(st.Size()))
		fmt.Printf("  llvm-as-19                                           %7.2f s   peak RSS %6.0f MiB (%.2f× input)\n",
			best[1].wall.Seconds(), mb(best[1].maxRSS), float64(best[1].maxRSS)/float64(st.Size()))
		fmt.Printf("  ratio sycbuild / llvm-as-19: %.2f×\n", best[0].wall.Seconds()/best[1].wall.Seconds())
	}
	return nil
}

// measure runs argv and returns its wall time and peak resident memory.
func measure(argv []string) (measurement, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return measurement{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(stderr.String()))
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // Linux reports KiB
	}
	return measurement{wall: wall, maxRSS: rss}, nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
