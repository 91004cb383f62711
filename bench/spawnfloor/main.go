//go:build linux

// Command spawnfloor is the floor of a build executor's own CPU: it runs a
// given list of jobs, each a sequence of commands (a command being one
// program or a pipeline of programs), on -j workers, and does nothing
// else: no environment of its own, the programs' output discarded, no
// output checked, nothing recorded. It starts each process with
// os.StartProcess, joins a pipeline's programs with jobs.Pipe and waits for
// each as sycbuild does, the cheapest way Go has (jobs.AwaitExit: its
// pidfd in the runtime's poller; then Wait reaps it). What an executor
// spends beyond it, running the same processes, is what executing a build
// costs; bench/dagbench runs it on the commands sycbuild ran and prints the
// ratio.
//
//	spawnfloor -jobs jobs.json -dir DIR [-j 2]
//
// jobs.json holds [][][][]string: jobs, their commands, a command's
// programs (more than one: each one's standard output piped into the
// next), a program's argv (argv[0] a name looked up on PATH, or a path,
// relative to -dir or absolute).
// It prints one line:
//
//	spawnfloor: P processes, J jobs, -j N: wall W s, own CPU U s user + S s system = X% of the wall time
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sycbuild/sycbuild/jobs"
)

func main() {
	list := flag.String("jobs", "", "the jobs to run, as JSON (see the package comment)")
	dir := flag.String("dir", ".", "the directory they run in")
	workers := flag.Int("j", runtime.NumCPU(), "jobs run at once")
	flag.Parse()
	if *list == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: spawnfloor -jobs FILE [-dir DIR] [-j N]")
		os.Exit(2)
	}
	if err := run(*list, *dir, max(*workers, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "spawnfloor:", err)
		os.Exit(1)
	}
}

func run(list, dir string, workers int) error {
	data, err := os.ReadFile(list)
	if err != nil {
		return err
	}
	var work [][][][]string
	if err := json.Unmarshal(data, &work); err != nil {
		return fmt.Errorf("%s: %v", list, err)
	}
	// The programs are found before the clock starts: a name on PATH (as a
	// shell would), a relative path from dir.
	procs := 0
	found := map[string]string{}
	for _, job := range work {
		for _, cmd := range job {
			for _, argv := range cmd {
				if len(argv) == 0 {
					return fmt.Errorf("%s: an empty argv", list)
				}
				procs++
				if _, ok := found[argv[0]]; ok {
					continue
				}
				path := argv[0]
				switch {
				case !strings.Contains(path, "/"):
					p, err := exec.LookPath(path)
					if err != nil {
						return err
					}
					path = p
				case !filepath.IsAbs(path):
					path = filepath.Join(dir, path)
				}
				found[argv[0]] = path
			}
		}
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	t0 := time.Now()
	var g errgroup.Group
	g.SetLimit(workers)
	for _, job := range work {
		g.Go(func() error {
			for _, cmd := range job {
				if err := pipeline(dir, found, cmd, null); err != nil {
					return err
				}
			}
			return nil
		})
	}
	err = g.Wait()
	wall := time.Since(t0)
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	if err != nil {
		return err
	}
	user := time.Duration(after.Utime.Nano() - before.Utime.Nano())
	sys := time.Duration(after.Stime.Nano() - before.Stime.Nano())
	fmt.Printf("spawnfloor: %d processes, %d jobs, -j %d: wall %.3f s, own CPU %.3f s user + %.3f s system = %.2f%% of the wall time\n",
		procs, len(work), workers, wall.Seconds(), user.Seconds(), sys.Seconds(), 100*(user+sys).Seconds()/wall.Seconds())
	return nil
}

// pipeline starts the programs of one command, each one's output piped
// into the next, and waits for them all; an error is a program that did
// not start or did not exit 0.
func pipeline(dir string, found map[string]string, progs [][]string, null *os.File) error {
	procs := make([]*os.Process, 0, len(progs))
	fds := make([]int, 0, len(progs))
	in := null
	var first error
	for i, argv := range progs {
		out := null
		var next *os.File
		if i < len(progs)-1 {
			r, w, err := jobs.Pipe()
			if err != nil {
				first = err
				break
			}
			out, next = w, r
		}
		pidfd := -1
		p, err := os.StartProcess(found[argv[0]], argv, &os.ProcAttr{Dir: dir, Files: []*os.File{in, out, null},
			Sys: &syscall.SysProcAttr{PidFD: &pidfd}})
		if in != null {
			in.Close()
		}
		if out != null {
			out.Close()
		}
		in = next
		if err != nil {
			first = err
			break
		}
		procs, fds = append(procs, p), append(fds, pidfd)
	}
	if in != nil && in != null {
		in.Close()
	}
	for i, p := range procs {
		jobs.AwaitExit(fds[i])
		ps, err := p.Wait()
		if err == nil && !ps.Success() {
			err = fmt.Errorf("%s: %v", progs[i][0], ps)
		}
		if first == nil {
			first = err
		}
	}
	return first
}
