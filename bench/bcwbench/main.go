// Command bcwbench times sycbuild's bitcode writer against LLVM's on the
// synthetic SYCL module of internal/irgen (13,000 kernels by default, opaque
// pointers), in one run on one machine:
//
//	go run ./bench/bcwbench
//	go run ./bench/bcwbench -kernels 5000 -runs 5 -dir /dev/shm/bcw
//
// It runs, alternately and -runs times each:
//   - llvmir.AssembleBitcode in this process (the module's text parsed and
//     written as LLVM 22 bitcode) and "llvm-as-22" on the same text;
//   - the DPC++ driver's sycl-post-link line on the module as bitcode
//     ("sycbuild sycl-post-link -split=kernel -symbols -emit-param-info
//     -properties -o out.table k.bc": bitcode in, one bitcode module per
//     kernel out, no -S) and "llvm-dis-22" alone on the same .bc;
//
// and prints the best wall and CPU time of each, bitcode written per
// second, and the ratios. With -instructions it also runs the driver line
// and llvm-dis-22 once each under valgrind's cachegrind (Debian package
// valgrind) and prints the instructions each executed, and their ratio: a
// measure the machine's other load does not move, where timings on a
// shared machine move by a third. The writer runs with the collector set as the
// sycl-post-link command sets it (syclpostlink.SetCollector), since that
// command is how the writer runs outside a test. (Peak memory is not
// measured here: a child of this large process reports this process's
// peak as its own; see bench/postlinkbench for how to measure it.)
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/llvmir"
)

func main() {
	kernels := flag.Int("kernels", 13000, "kernels in the module")
	runs := flag.Int("runs", 3, "timed runs of each command (the best counts)")
	keep := flag.String("dir", "", "work directory (default: a temporary one, removed)")
	instructions := flag.Bool("instructions", false, "also count the instructions of the driver line and llvm-dis-22 (valgrind)")
	flag.Parse()
	if err := run(*kernels, *runs, *keep, *instructions); err != nil {
		fmt.Fprintln(os.Stderr, "bcwbench:", err)
		os.Exit(1)
	}
}

// sample is one timed run: wall and CPU time.
type sample struct {
	wall, cpu time.Duration
}

func run(kernels, runs int, dir string, instructions bool) error {
	syclpostlink.SetCollector()
	tools := []string{"llvm-as-22", "llvm-dis-22"}
	if instructions {
		tools = append(tools, "valgrind")
	}
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			return fmt.Errorf("%s not found: %v", t, err)
		}
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "bcwbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bin := filepath.Join(dir, "sycbuild")
	build := exec.Command("go", "build", "-o", bin, "./cmd/sycbuild")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building sycbuild: %v", err)
	}
	ll := filepath.Join(dir, "k.ll")
	bc := filepath.Join(dir, "k.bc")
	if err := irgen.WriteFile(ll, irgen.Scaled(kernels)); err != nil {
		return err
	}
	if out, err := exec.Command("llvm-as-22", ll, "-o", bc).CombinedOutput(); err != nil {
		return fmt.Errorf("llvm-as-22: %v\n%s", err, out)
	}
	text, err := os.ReadFile(ll)
	if err != nil {
		return err
	}
	bcInfo, err := os.Stat(bc)
	if err != nil {
		return err
	}
	ours, err := llvmir.AssembleBitcode(ll, text, llvmir.BitcodeOptions{LLVM: 22})
	if err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs, %s/%s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("module: %d kernels, %d bytes of text, %d bytes of bitcode by llvm-as-22, %d by sycbuild\n",
		kernels, len(text), bcInfo.Size(), len(ours))
	outDir := filepath.Join(dir, "split")
	driverLine := []string{bin, "sycl-post-link", "-split=kernel", "-symbols", "-emit-param-info",
		"-properties", "-spec-const=native", "-o", filepath.Join(outDir, "out.table"), bc}
	dis := []string{"llvm-dis-22", bc, "-o", filepath.Join(dir, "dis.ll")}
	cmds := []struct {
		name string
		run  func() (sample, error)
	}{
		{"llvmir.AssembleBitcode (in process)", func() (sample, error) {
			return inProcess(func() error {
				_, err := llvmir.AssembleBitcode(ll, text, llvmir.BitcodeOptions{LLVM: 22})
				return err
			})
		}},
		{"llvm-as-22", func() (sample, error) {
			return process(exec.Command("llvm-as-22", ll, "-o", filepath.Join(dir, "as.bc")))
		}},
		{"sycl-post-link driver line, .bc in and out", func() (sample, error) {
			if err := emptyDir(outDir); err != nil {
				return sample{}, err
			}
			return process(exec.Command(driverLine[0], driverLine[1:]...))
		}},
		{"llvm-dis-22", func() (sample, error) {
			return process(exec.Command(dis[0], dis[1:]...))
		}},
	}
	best := make([]sample, len(cmds))
	for r := 0; r < runs; r++ {
		for i, c := range cmds {
			// Two collections empty the writer's pool of slabs (a
			// sync.Pool), so that every in-process run starts cold, as
			// one sycl-post-link process does.
			runtime.GC()
			runtime.GC()
			s, err := c.run()
			if err != nil {
				return fmt.Errorf("%s: %v", c.name, err)
			}
			if r == 0 || s.wall < best[i].wall {
				best[i] = s
			}
		}
	}
	for i, c := range cmds {
		fmt.Printf("%-45s wall %7.3f s  CPU %7.3f s\n", c.name, best[i].wall.Seconds(), best[i].cpu.Seconds())
	}
	mbps := func(s sample, n int) float64 { return float64(n) / s.wall.Seconds() / 1e6 }
	fmt.Printf("bitcode written: sycbuild %.1f MB/s, llvm-as-22 %.1f MB/s; llvm-as-22 / sycbuild wall %.2f\n",
		mbps(best[0], len(ours)), mbps(best[1], int(bcInfo.Size())), best[1].wall.Seconds()/best[0].wall.Seconds())
	fmt.Printf("driver line / llvm-dis-22: wall %.2f, CPU %.2f\n",
		best[2].wall.Seconds()/best[3].wall.Seconds(), best[2].cpu.Seconds()/best[3].cpu.Seconds())
	if !instructions {
		return nil
	}
	if err := emptyDir(outDir); err != nil {
		return err
	}
	line, err := countInstructions(driverLine)
	if err != nil {
		return err
	}
	llvm, err := countInstructions(dis)
	if err != nil {
		return err
	}
	fmt.Printf("instructions (cachegrind): driver line %d, llvm-dis-22 %d; driver line / llvm-dis-22 %.2f\n",
		line, llvm, float64(line)/float64(llvm))
	return nil
}

// emptyDir makes dir an empty directory, for the driver line's outputs.
func emptyDir(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

// irefs is how cachegrind's summary gives the instructions executed.
var irefs = regexp.MustCompile(`I\s+refs:\s+([0-9,]+)`)

// countInstructions runs argv under cachegrind and returns the
// instructions the process executed (all its threads: a Go program's
// collector and helper goroutines count, as they do in its CPU time).
func countInstructions(argv []string) (int64, error) {
	args := append([]string{"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"}, argv...)
	cmd := exec.Command("valgrind", args...)
	// Valgrind's signals and Go's preemption signals do not mix.
	cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("valgrind %s: %v\n%s", strings.Join(argv, " "), err, stderr.Bytes())
	}
	m := irefs.FindSubmatch(stderr.Bytes())
	if m == nil {
		return 0, fmt.Errorf("valgrind %s: no instruction count in\n%s", strings.Join(argv, " "), stderr.Bytes())
	}
	return strconv.ParseInt(strings.ReplaceAll(string(m[1]), ",", ""), 10, 64)
}

// process runs cmd and returns its wall time, CPU time and peak RSS.
func process(cmd *exec.Cmd) (sample, error) {
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, err
	}
	wall := time.Since(start)
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
}

// inProcess runs f and returns its wall time and this process's CPU time
// while it ran.
func inProcess(f func() error) (sample, error) {
	u0, s0, _ := jobs.SelfCPU()
	start := time.Now()
	if err := f(); err != nil {
		return sample{}, err
	}
	wall := time.Since(start)
	u1, s1, _ := jobs.SelfCPU()
	return sample{wall: wall, cpu: u1 + s1 - u0 - s0}, nil
}
