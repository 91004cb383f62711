// Command bcbench times sycbuild's bitcode reader against LLVM's on the
// synthetic SYCL module of internal/irgen (13,000 kernels by default)
// assembled to bitcode with llvm-as-19, in one run on one machine:
//
//	go run ./bench/bcbench
//	go run ./bench/bcbench -kernels 5000 -runs 5 -dir /dev/shm/bcb
//
// It runs, alternately and -runs times each, bitcode.Disassemble in this
// process, "llvm-dis-22" on the same .bc, and "sycbuild sycl-post-link
// -split=kernel -symbols -S" on the .bc (bitcode read, parsed and split)
// and on the .ll, and prints the best wall time of each and their ratios.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sycbuild/sycbuild/bitcode"
	"github.com/sycbuild/sycbuild/internal/irgen"
)

func main() {
	kernels := flag.Int("kernels", 13000, "kernels in the module")
	runs := flag.Int("runs", 3, "timed runs of each command (the best counts)")
	keep := flag.String("dir", "", "work directory (default: a temporary one, removed)")
	flag.Parse()
	if err := run(*kernels, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bcbench:", err)
		os.Exit(1)
	}
}

func run(kernels, runs int, dir string) error {
	for _, t := range []string{"llvm-as-19", "llvm-dis-22"} {
		if _, err := exec.LookPath(t); err != nil {
			return fmt.Errorf("%s not found: %v", t, err)
		}
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "bcbench-")
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
	if out, err := exec.Command("llvm-as-19", ll, "-o", bc).CombinedOutput(); err != nil {
		return fmt.Errorf("llvm-as-19: %v\n%s", err, out)
	}
	data, err := os.ReadFile(bc)
	if err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs, %s/%s\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("module: %d kernels, %d bytes of bitcode (llvm-as-19)\n", kernels, len(data))
	outDir := filepath.Join(dir, "split")
	cmds := []struct {
		name string
		run  func() error
	}{
		{"bitcode.Disassemble", func() error {
			_, err := bitcode.Disassemble(bc, data)
			return err
		}},
		{"llvm-dis-22", func() error {
			return exec.Command("llvm-dis-22", bc, "-o", filepath.Join(dir, "dis.ll")).Run()
		}},
		{"sycbuild sycl-post-link -split=kernel .bc", func() error { return split(bin, bc, outDir) }},
		{"sycbuild sycl-post-link -split=kernel .ll", func() error { return split(bin, ll, outDir) }},
	}
	best := make([]time.Duration, len(cmds))
	for r := 0; r < runs; r++ {
		for i, c := range cmds {
			runtime.GC()
			start := time.Now()
			if err := c.run(); err != nil {
				return fmt.Errorf("%s: %v", c.name, err)
			}
			if d := time.Since(start); r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	for i, c := range cmds {
		fmt.Printf("%-40s %8.3f s\n", c.name, best[i].Seconds())
	}
	fmt.Printf("Disassemble / llvm-dis-22:               %.2f\n", best[0].Seconds()/best[1].Seconds())
	fmt.Printf("sycl-post-link on .bc / llvm-dis-22:     %.2f\n", best[2].Seconds()/best[1].Seconds())
	fmt.Printf("sycl-post-link on .bc / on .ll:          %.2f\n", best[2].Seconds()/best[3].Seconds())
	return nil
}

// split runs sycbuild's sycl-post-link -split=kernel -symbols -S on in,
// writing into a fresh dir.
func split(bin, in, dir string) error {
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd := exec.Command(bin, "sycl-post-link", "-split=kernel", "-symbols", "-S", in, "-o", filepath.Join(dir, "out.table"))
	cmd.Stderr = os.Stderr
	return cmd.Run()
}
