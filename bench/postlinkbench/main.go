//go:build unix

// Command postlinkbench times sycbuild's sycl-post-link on the synthetic
// SYCL modules of internal/irgen, against the read-once-write-once floor
// (bench/floor) and against LLVM, in one run on one machine:
//
//	go run ./bench/postlinkbench                  # 1000, 5000 and 13,000 kernels
//	go run ./bench/postlinkbench -kernels 1000,5000,13000,30000,60000,100000 \
//	    -shape scaled,quadratic -floor 13000,60000 -llvm 5000,13000,60000 -dir /dev/shm/plb
//
// For each shape and size it writes the module (irgen.Scaled: the benchmark
// module scaled up; irgen.Quadratic: one source and attribute group per
// kernel) and runs "sycbuild sycl-post-link" with splitArgs (a module, a
// symbol file and a property file per kernel, and the table), -runs times;
// the best wall time and the best CPU time (user + system) count, peak RSS
// is the child's ru_maxrss (taken by a small copy of this program that
// starts it, see measure), bytes allocated are counted by running the same
// split in a child of this program (-alloc). It prints each size's time,
// memory and allocation per kernel (peak RSS per kernel above that of a
// 10-kernel module, which is mostly the process's own), and how far the
// per-kernel figures stray from their mean over the sizes (the split is
// linear when they do not). At the sizes of -floor it also times bench/floor writing the same
// files with the same sizes, their bytes read from all over the input as
// a split's are, and with -from-start (every file the start of the input,
// bytes that stay in the caches), and at the sizes of -llvm "llvm-as-19" (LLVM's
// bare parse and write) and "llvm-split-19 -j2" on the same input, run
// alternately with sycbuild; ratios are sycbuild's time over theirs, wall
// and CPU. Never part of go test or CI.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/postlink"
)

// splitArgs are the timed sycl-post-link options (benchOptions in-process),
// those the DPC++ driver passes for a per-kernel split, with text output.
var splitArgs = []string{"-split=kernel", "-symbols", "-properties", "-spec-const=native", "-emit-param-info",
	"-emit-exported-symbols", "-emit-imported-symbols", "-device-globals", "-S"}

// benchOptions are splitArgs as postlink options.
func benchOptions(in, table string) postlink.Options {
	return postlink.Options{Input: in, Outputs: []postlink.Output{{File: table}},
		Split: postlink.SplitKernel, SplitGiven: true, Symbols: true, Properties: true,
		SpecConst: postlink.SpecConstNative, EmitParamInfo: true, EmitExportedSymbols: true,
		EmitImportedSymbols: true, DeviceGlobals: true, Assembly: true}
}

func main() {
	sizes := flag.String("kernels", "1000,5000,13000", "comma-separated module sizes (kernels)")
	shapes := flag.String("shape", "scaled", "comma-separated module shapes: scaled, quadratic")
	floorAt := flag.String("floor", "13000", "sizes (scaled shape) at which bench/floor is timed too")
	llvmAt := flag.String("llvm", "", "sizes (scaled shape) at which llvm-as-19 and llvm-split-19 -j2 are timed too")
	runs := flag.Int("runs", 3, "timed runs of each command per size (the best counts)")
	alloc := flag.Bool("alloc", true, "count the bytes the split allocates (one more run, in a child)")
	keep := flag.String("dir", "", "work directory (default: a temporary one, removed); the outputs are written there")
	binary := flag.String("sycbuild", "", "sycbuild binary to time (default: built from this tree)")
	floorBin := flag.String("floor-bin", "", "bench/floor binary (default: built from this tree)")
	measureAlloc := flag.String("measure-alloc", "", "internal: split this input in-process and print what it allocated")
	measureRun := flag.Bool("measure-run", false, "internal: run the command the arguments name and print what it cost (see measure)")
	flag.Parse()
	if *measureRun {
		if err := runMeasured(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "postlinkbench:", err)
			os.Exit(1)
		}
		return
	}
	if *measureAlloc != "" {
		if err := allocOf(*measureAlloc, flag.Arg(0)); err != nil {
			fmt.Fprintln(os.Stderr, "postlinkbench:", err)
			os.Exit(1)
		}
		return
	}
	b := &bench{runs: *runs, alloc: *alloc}
	err := b.setUp(*keep, *binary, *floorBin)
	if err == nil {
		err = b.run(*sizes, *shapes, *floorAt, *llvmAt)
	}
	b.cleanUp()
	if err != nil {
		fmt.Fprintln(os.Stderr, "postlinkbench:", err)
		os.Exit(1)
	}
}

// bench is one run of the program.
type bench struct {
	runs              int
	alloc             bool
	dir               string
	temp              bool // dir is removed at the end
	sycbuild, floor   string
	llvmAs, llvmSplit string
}

// measurement is one command's best run.
type measurement struct {
	wall, cpu time.Duration
	user, sys time.Duration // of the run with the least CPU time
	maxRSS    int64         // bytes
}

func (b *bench) setUp(dir, bin, floor string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "postlinkbench-")
		if err != nil {
			return err
		}
		b.dir, b.temp = d, true
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	} else {
		b.dir = dir
	}
	build := func(out, pkg string) error {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building %s: %v", pkg, err)
		}
		return nil
	}
	b.sycbuild = bin
	if bin == "" {
		b.sycbuild = filepath.Join(b.dir, "sycbuild")
		if err := build(b.sycbuild, "./cmd/sycbuild"); err != nil {
			return err
		}
	}
	if floor != "" {
		b.floor = floor
		return nil
	}
	b.floor = filepath.Join(b.dir, "floor")
	return build(b.floor, "./bench/floor")
}

func (b *bench) cleanUp() {
	if b.temp {
		os.RemoveAll(b.dir)
	}
}

// row is what one size measured.
type row struct {
	kernels        int
	input, outputs int64 // bytes
	files          int
	split          measurement
	allocBytes     int64
	allocs         int64
}

func (b *bench) run(sizes, shapes, floorAt, llvmAt string) error {
	ns, err := parseSizes(sizes)
	if err != nil {
		return err
	}
	floors, err := parseSizes(floorAt)
	if err != nil {
		return err
	}
	llvms, err := parseSizes(llvmAt)
	if err != nil {
		return err
	}
	if len(llvms) > 0 {
		if b.llvmAs, err = exec.LookPath("llvm-as-19"); err != nil {
			return err
		}
		if b.llvmSplit, err = exec.LookPath("llvm-split-19"); err != nil {
			return err
		}
	}
	fmt.Printf("machine: %d CPUs, %s/%s; files in %s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, b.dir)
	fmt.Printf("split: sycbuild sycl-post-link %s IN -o OUT/out.table (best of %d)\n", strings.Join(splitArgs, " "), b.runs)
	config := func(shape string, n int) irgen.Config {
		if shape == "quadratic" {
			return irgen.Quadratic(n)
		}
		return irgen.Scaled(n)
	}
	// The base of each shape: what a module of baseKernels costs, mostly
	// the process itself; memory per kernel is counted above it.
	bases := map[string]row{}
	for _, shape := range strings.Split(shapes, ",") {
		if shape != "scaled" && shape != "quadratic" {
			return fmt.Errorf("unknown shape %q", shape)
		}
		base, _, _, err := b.size(shape, baseKernels, config(shape, baseKernels), false, false)
		if err != nil {
			return err
		}
		bases[shape] = base
	}
	for _, shape := range strings.Split(shapes, ",") {
		var rows []row
		var vsFloor, vsLLVM []string
		base := bases[shape]
		for _, n := range ns {
			c := config(shape, n)
			withFloor := shape == "scaled" && slices.Contains(floors, n)
			withLLVM := shape == "scaled" && slices.Contains(llvms, n)
			r, f, l, err := b.size(shape, n, c, withFloor, withLLVM)
			if err != nil {
				return err
			}
			rows = append(rows, r)
			vsFloor = append(vsFloor, f...)
			vsLLVM = append(vsLLVM, l...)
			fmt.Fprintf(os.Stderr, "postlinkbench: %s %d kernels done\n", shape, n)
		}
		printRows(shape, base, rows)
		if len(vsFloor) > 0 {
			fmt.Printf("\n| kernels | sycbuild wall | CPU | floor wall | CPU | sycbuild / floor, wall | CPU | floor -from-start wall | CPU | sycbuild / it, wall | CPU |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
			for _, l := range vsFloor {
				fmt.Println(l)
			}
		}
		if len(vsLLVM) > 0 {
			fmt.Printf("\n| kernels | sycbuild wall | CPU | llvm-as-19 wall | CPU | llvm-split-19 -j2 wall | CPU | / llvm-as-19, wall | CPU | / llvm-split-19, wall | CPU |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
			for _, l := range vsLLVM {
				fmt.Println(l)
			}
		}
	}
	return nil
}

// size measures one module size: the split, and the floor and LLVM beside
// it when asked; it returns the row and the lines of the comparison tables.
func (b *bench) size(shape string, n int, c irgen.Config, withFloor, withLLVM bool) (r row, vsFloor, vsLLVM []string, err error) {
	in := filepath.Join(b.dir, fmt.Sprintf("%s%d.ll", shape, n))
	if err := irgen.WriteFile(in, c); err != nil {
		return r, nil, nil, err
	}
	defer os.Remove(in)
	st, err := os.Stat(in)
	if err != nil {
		return r, nil, nil, err
	}
	r.kernels, r.input = n, st.Size()
	out := filepath.Join(b.dir, "out")
	list := filepath.Join(b.dir, "files.txt")
	defer os.Remove(list)
	split := append(append([]string{b.sycbuild, "sycl-post-link"}, splitArgs...), in, "-o", filepath.Join(out, "out.table"))
	cmds := [][]string{split}
	if withFloor {
		cmds = append(cmds, []string{b.floor, "-in", in, "-list", list, "-dir", out},
			[]string{b.floor, "-from-start", "-in", in, "-list", list, "-dir", out})
	}
	if withLLVM {
		cmds = append(cmds, []string{b.llvmAs, in, "-o", filepath.Join(out, "out.bc")},
			[]string{b.llvmSplit, "-j2", in, "-o", filepath.Join(out, "split")})
	}
	best := make([]measurement, len(cmds))
	timed := make([]int, len(cmds))
	// The first run of a command that takes under warmUp is a warm-up
	// (the binary and the input in the caches) and does not count: at
	// small sizes it was up to half again as slow as the others.
	const warmUp = 2 * time.Second
	for run := 0; run <= b.runs; run++ {
		for i, argv := range cmds {
			if run == b.runs && timed[i] == b.runs {
				continue
			}
			os.RemoveAll(out)
			if err := os.Mkdir(out, 0o755); err != nil {
				return r, nil, nil, err
			}
			m, err := measure(argv)
			if err != nil {
				return r, nil, nil, err
			}
			if i == 0 && run == 0 {
				if r.files, r.outputs, err = listFiles(out, list); err != nil {
					return r, nil, nil, err
				}
			}
			if run == 0 && m.wall < warmUp && b.runs > 1 {
				continue
			}
			if timed[i] == 0 || m.wall < best[i].wall {
				best[i].wall = m.wall
			}
			if timed[i] == 0 || m.cpu < best[i].cpu {
				best[i].cpu, best[i].user, best[i].sys = m.cpu, m.user, m.sys
			}
			best[i].maxRSS = max(best[i].maxRSS, m.maxRSS)
			timed[i]++
		}
	}
	os.RemoveAll(out)
	r.split = best[0]
	if b.alloc {
		if r.allocBytes, r.allocs, err = b.allocated(in, out); err != nil {
			return r, nil, nil, err
		}
		os.RemoveAll(out)
	}
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
	ratio := func(a, b time.Duration) string { return fmt.Sprintf("%.2f×", a.Seconds()/b.Seconds()) }
	s := best[0]
	if withFloor {
		f, fs := best[1], best[2]
		vsFloor = append(vsFloor, fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", n,
			sec(s.wall), sec(s.cpu), sec(f.wall), sec(f.cpu), ratio(s.wall, f.wall), ratio(s.cpu, f.cpu),
			sec(fs.wall), sec(fs.cpu), ratio(s.wall, fs.wall), ratio(s.cpu, fs.cpu)))
	}
	if withLLVM {
		a, sp := best[len(best)-2], best[len(best)-1]
		vsLLVM = append(vsLLVM, fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", n,
			sec(s.wall), sec(s.cpu), sec(a.wall), sec(a.cpu), sec(sp.wall), sec(sp.cpu),
			ratio(s.wall, a.wall), ratio(s.cpu, a.cpu), ratio(s.wall, sp.wall), ratio(s.cpu, sp.cpu)))
	}
	return r, vsFloor, vsLLVM, nil
}

// baseKernels is the size of the base run of each shape.
const baseKernels = 10

// printRows prints the scaling table of one shape and how far the
// per-kernel figures stray from their mean; peak RSS per kernel is counted
// above the base run's.
func printRows(shape string, base row, rows []row) {
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	fmt.Printf("\nshape %s (base: %d kernels, peak RSS %.0f MiB)\n\n", shape, base.kernels, mib(base.split.maxRSS))
	fmt.Printf("| kernels | input | outputs | files | wall | CPU | wall / kernel | CPU / kernel | user / kernel | system / kernel | peak RSS | RSS above base / kernel | allocated / kernel | allocations / kernel |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var wall, cpu, user, sys, rss, alloc []float64
	for _, r := range rows {
		k := float64(r.kernels)
		wall = append(wall, r.split.wall.Seconds()/k*1e6)
		cpu = append(cpu, r.split.cpu.Seconds()/k*1e6)
		user = append(user, r.split.user.Seconds()/k*1e6)
		sys = append(sys, r.split.sys.Seconds()/k*1e6)
		rss = append(rss, float64(r.split.maxRSS-base.split.maxRSS)/float64(r.kernels-base.kernels)/1024)
		alloc = append(alloc, float64(r.allocBytes)/k/1024)
		fmt.Printf("| %d | %.1f MiB | %.1f MiB | %d | %.2f s | %.2f s | %.0f µs | %.0f µs | %.0f µs | %.0f µs | %.0f MiB | %.1f KiB | %.1f KiB | %.0f |\n",
			r.kernels, mib(r.input), mib(r.outputs), r.files, r.split.wall.Seconds(), r.split.cpu.Seconds(),
			wall[len(wall)-1], cpu[len(cpu)-1], user[len(user)-1], sys[len(sys)-1], mib(r.split.maxRSS), rss[len(rss)-1],
			alloc[len(alloc)-1], float64(r.allocs)/k)
	}
	fmt.Printf("\nper kernel, largest deviation from the mean over the sizes: wall %s, CPU %s (user %s, system %s), peak RSS above base %s, allocated %s\n",
		spread(wall), spread(cpu), spread(user), spread(sys), spread(rss), spread(alloc))
}

// spread is the largest deviation of vs from their mean, in percent.
func spread(vs []float64) string {
	if len(vs) == 0 {
		return "-"
	}
	mean := 0.0
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	if mean == 0 {
		return "-"
	}
	dev := 0.0
	for _, v := range vs {
		dev = math.Max(dev, math.Abs(v-mean)/mean)
	}
	return fmt.Sprintf("±%.0f%%", dev*100)
}

// listFiles writes the list bench/floor reads: every file under dir with
// its size, relative to dir; it returns their count and total size.
func listFiles(dir, list string) (int, int64, error) {
	var b bytes.Buffer
	n, total := 0, int64(0)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%d %s\n", info.Size(), rel)
		n++
		total += info.Size()
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return n, total, os.WriteFile(list, b.Bytes(), 0o644)
}

// allocated runs the split in a child of this program and returns the
// bytes and the number of objects it allocated.
func (b *bench) allocated(in, out string) (int64, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	os.RemoveAll(out)
	if err := os.Mkdir(out, 0o755); err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(self, "-measure-alloc", in, filepath.Join(out, "out.table"))
	cmd.Stderr = os.Stderr
	text, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("counting allocations: %v", err)
	}
	var bytes, objects int64
	if _, err := fmt.Sscanf(string(text), "allocated %d %d", &bytes, &objects); err != nil {
		return 0, 0, fmt.Errorf("counting allocations: %q: %v", text, err)
	}
	return bytes, objects, nil
}

// allocOf is -measure-alloc: split in in-process (benchOptions) and print
// the bytes and objects allocated.
func allocOf(in, table string) error {
	o := benchOptions(in, table)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var stderr bytes.Buffer
	err := postlink.Run(&o, postlink.IO{Stdout: &stderr, Stderr: &stderr, Argv0: "sycl-post-link"})
	runtime.ReadMemStats(&after)
	if err != nil {
		return fmt.Errorf("%v\n%s", err, stderr.String())
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "allocated %d %d\n", after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs)
	return w.Flush()
}

// measure runs argv and returns its wall time, CPU time and peak resident
// memory. A copy of this program runs it (-measure-run) and reports them:
// a process that Go starts (vfork, then exec) counts its parent's peak
// resident memory as its own, as Linux records the peak of the memory a
// process leaves at exec, and this program grows when it lists the
// outputs of a large split. The copy is small and the same for every run.
func measure(argv []string) (measurement, error) {
	self, err := os.Executable()
	if err != nil {
		return measurement{}, err
	}
	cmd := exec.Command(self, append([]string{"-measure-run", "--"}, argv...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return measurement{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(stderr.String()))
	}
	var wall, user, sys time.Duration
	var rss int64
	if _, err := fmt.Sscanf(stdout.String(), "usage %d %d %d %d", &wall, &user, &sys, &rss); err != nil {
		return measurement{}, fmt.Errorf("%s: the measuring copy printed %q: %v", strings.Join(argv, " "), stdout.String(), err)
	}
	return measurement{wall: wall, cpu: user + sys, user: user, sys: sys, maxRSS: rss}, nil
}

// runMeasured runs argv and prints its wall time, user and system time (in
// nanoseconds) and peak resident memory (in bytes) on one line.
func runMeasured(argv []string) error {
	if len(argv) == 0 {
		return errors.New("-measure-run: no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return err
	}
	wall := time.Since(start)
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return errors.New("-measure-run: the system gives no resource usage")
	}
	fmt.Printf("usage %d %d %d %d\n", wall, cmd.ProcessState.UserTime(), cmd.ProcessState.SystemTime(), ru.Maxrss*1024) // Linux reports KiB
	return nil
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
