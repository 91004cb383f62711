// Command llvmirbench times loading a big textual LLVM IR module with
// package llvmir (every entity parsed, every reference and call resolved)
// against LLVM's own parser on the same file, in one run:
//
//	go run ./bench/llvmirbench                 # generates the 5000-kernel module (~65 MB)
//	go run ./bench/llvmirbench -runs 5 -file big.ll
//
// LLVM's side is "opt-19 -disable-verify -passes=no-op-module
// -disable-output FILE" (parse, no verifier, no output). Both sides run as
// child processes, alternately, -runs times each; the best wall time of
// each, their ratio and each one's peak resident memory (the child's
// rusage maxrss) are printed, with the peak memory relative to the file
// size.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/sycbuild/sycbuild/internal/irgen"
	"github.com/sycbuild/sycbuild/jobs"
	"github.com/sycbuild/sycbuild/llvmir"
)

// childEnv, when set, makes the process load the named file and exit.
const childEnv = "LLVMIRBENCH_LOAD"

func main() {
	if path := os.Getenv(childEnv); path != "" {
		if err := load(path); err != nil {
			fmt.Fprintln(os.Stderr, "llvmirbench:", err)
			os.Exit(1)
		}
		return
	}
	runs := flag.Int("runs", 3, "timed runs of each side (the best counts)")
	file := flag.String("file", "", "module to load (default: generate the 5000-kernel module)")
	opt := flag.String("opt", "opt-19", "LLVM's opt")
	flag.Parse()
	if err := run(*file, *opt, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "llvmirbench:", err)
		os.Exit(1)
	}
}

// load is the measured work of the llvmir side.
func load(path string) error {
	m, err := llvmir.ParseFile(path)
	if err != nil {
		return err
	}
	var fns, calls, refs, mds int
	for _, e := range m.Entities {
		refs += len(e.Globals)
		mds += len(e.Metadata)
		if e.Func != nil {
			fns++
			calls += len(e.Func.Calls)
		}
	}
	fmt.Printf("%d entities, %d functions, %d calls, %d global references, %d metadata references\n",
		len(m.Entities), fns, calls, refs, mds)
	return nil
}

type result struct {
	best   time.Duration
	maxRSS int64 // bytes
	out    string
}

func measure(cmd *exec.Cmd, r *result) error {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	if r.best == 0 || wall < r.best {
		r.best = wall
	}
	r.maxRSS = max(r.maxRSS, jobs.PeakRSS(cmd.ProcessState))
	r.out = strings.TrimSpace(string(out))
	return nil
}

func run(file, opt string, runs int) error {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	optPath, err := exec.LookPath(opt)
	if err != nil {
		return fmt.Errorf("%s not found: %v", opt, err)
	}
	if file == "" {
		dir, err := os.MkdirTemp("", "llvmirbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		file = filepath.Join(dir, "big.ll")
		f, err := os.Create(file)
		if err != nil {
			return err
		}
		start := time.Now()
		err = irgen.Write(f, irgen.Big())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Printf("generated %s in %.2f s\n", file, time.Since(start).Seconds())
	}
	info, err := os.Stat(file)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("module: %d bytes; %d runs each, alternating; GOMAXPROCS %d, %s/%s, %s\n",
		info.Size(), runs, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
	var ours, llvm result
	for i := 0; i < runs; i++ {
		c := exec.Command(self)
		c.Env = append(os.Environ(), childEnv+"="+file)
		if err := measure(c, &ours); err != nil {
			return err
		}
		if err := measure(exec.Command(optPath, "-disable-verify", "-passes=no-op-module", "-disable-output", file), &llvm); err != nil {
			return err
		}
	}
	size := float64(info.Size())
	mb := func(b int64) float64 { return float64(b) / 1e6 }
	fmt.Printf("llvmir load: %s\n", ours.out)
	fmt.Printf("%-52s %8.3f s  peak RSS %7.1f MB (%.2f x file)\n", "llvmir.ParseFile (child process)", ours.best.Seconds(), mb(ours.maxRSS), float64(ours.maxRSS)/size)
	fmt.Printf("%-52s %8.3f s  peak RSS %7.1f MB (%.2f x file)\n", opt+" -disable-verify -passes=no-op-module", llvm.best.Seconds(), mb(llvm.maxRSS), float64(llvm.maxRSS)/size)
	fmt.Printf("speed-up: %.1fx (goal >= 3x); llvmir peak RSS %.2f x file size (goal <= 2x)\n",
		llvm.best.Seconds()/ours.best.Seconds(), float64(ours.maxRSS)/size)
	return nil
}
