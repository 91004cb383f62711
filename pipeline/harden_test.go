package pipeline_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/toolchain"
)

// TestDiskFull: a compiler that hits ENOSPC on a full disk and still exits
// 0 leaves an empty or cut image; the build fails, caches nothing, and
// once space is freed the rebuild makes the real images.
func TestDiskFull(t *testing.T) {
	needTools(t, "llvm-spirv-15", "ocloc", "cc")
	p := newProject(t, "p", "inputs: [device.ll]\nsplit: per_kernel\ntools: {ocloc: ./fake/ocloc}\ntargets:\n  - kind: spir64_gen\n    devices: [pvc, acm-g10]\n", "device.ll")
	out := filepath.Join(p.dir, "out")
	os.MkdirAll(out, 0o755)
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", out).Run(); err != nil {
		testenv.SkipNotChecked(t, "a build on a full disk: cannot mount a 2 MB tmpfs for the build directory (mount -t tmpfs needs root): "+err.Error())
	}
	t.Cleanup(func() { exec.Command("umount", out).Run() })
	// ocloc writes its image to /tmp; the stand-in fills the disk, then
	// copies the image over and ignores that the copy failed.
	ocloc := testenv.Tool(t, "ocloc")
	p.write("fake/ocloc", "#!/bin/sh\n[ \"$1\" = query ] && exec "+ocloc+" \"$@\"\n"+
		"tmp=$(mktemp)\n"+ocloc+" compile -file \"$3\" -spirv_input -device \"$6\" -output \"$tmp\" -output_no_suffix -q || exit 1\n"+
		"[ -e full ] && head -c 4M /dev/zero > out/.filler$$ 2>/dev/null\n"+
		"cat \"$tmp\" > \"$8\" 2>/dev/null\nrm -f \"$tmp\"\nexit 0\n")
	p.write("full", "")
	_, stderr, code := p.run("-j", "1")
	if code != 1 {
		t.Fatalf("on a full disk: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "it wrote an unusable output: out/spir64_gen/module_0.bin") {
		t.Errorf("on a full disk:\n%s", stderr)
	}
	os.Remove(filepath.Join(p.dir, "full"))
	fillers, _ := filepath.Glob(filepath.Join(out, ".filler*"))
	for _, f := range fillers {
		os.Remove(f)
	}
	stderr, s := p.build()
	if s.jobsRan != 4 || s.jobsCached != 0 {
		t.Errorf("after freeing space, %+v: an image of the full disk was cached\n%s", s, stderr)
	}
	bins, _ := filepath.Glob(filepath.Join(out, "spir64_gen", "module_*.bin"))
	for _, b := range bins {
		if err := toolchain.CheckFile(toolchain.OutputCheck("ocloc"), b); err != nil {
			t.Errorf("after the rebuild: %v", err)
		}
	}
	if len(bins) != 4 || len(p.images()) != 8 {
		t.Errorf("%d images, object: %q", len(bins), p.images())
	}
}

// TestToolsDieWithSycbuild: a sycbuild killed with SIGKILL takes its
// running tools with it.
func TestToolsDieWithSycbuild(t *testing.T) {
	needTools(t, "llvm-spirv-15")
	p := newProject(t, "p", "inputs: [vector_ops.ll]\nsplit: off\ntools: {ocloc: ./fake/ocloc}\ntargets:\n  - kind: spir64_gen\n    devices: [pvc]\n", "vector_ops.ll")
	p.write("fake/ocloc", "#!/bin/sh\n[ \"$1\" = query ] && { echo 1.0; exit 0; }\necho $$ > ocloc.pid\nexec sleep 120\n")
	cmd := exec.Command(testenv.Sycbuild(t))
	cmd.Dir, cmd.Env = p.dir, p.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	for deadline := time.Now().Add(60 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(p.dir, "ocloc.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if pid == 0 {
		t.Fatal("the tool never started")
	}
	for deadline := time.Now().Add(30 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the tool outlived the killed sycbuild")
		}
	}
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// lockBuildDir takes the build directory's lock, as a running build holds
// it, until the test ends or release is called.
func lockBuildDir(t *testing.T, dir string) (release func()) {
	os.MkdirAll(dir, 0o755)
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return func() { f.Close() }
}

// startWaiting starts sycbuild and returns once it says it waits for the
// lock, with a channel that receives its exit status.
func startWaiting(t *testing.T, p *project, args ...string) (*exec.Cmd, chan int) {
	cmd := exec.Command(testenv.Sycbuild(t), args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "waiting for another sycbuild that is using out") {
			break
		}
	}
	if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "waiting") {
		cmd.Wait()
		t.Fatalf("sycbuild %s did not wait for the lock:\n%s", strings.Join(args, " "), strings.Join(lines, "\n"))
	}
	done := make(chan int, 1)
	go func() {
		for sc.Scan() {
		}
		cmd.Wait()
		done <- cmd.ProcessState.ExitCode()
	}()
	return cmd, done
}

// TestInterruptWhileWaitingForLock: the first SIGINT ends a build that
// waits for another build's lock.
func TestInterruptWhileWaitingForLock(t *testing.T) {
	p := newProject(t, "p", "inputs: [vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll")
	lockBuildDir(t, filepath.Join(p.dir, "out"))
	cmd, done := startWaiting(t, p)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit %d after SIGINT, want 130", code)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("SIGINT did not end the wait for the lock")
	}
}

// TestNoCacheLocks: --no-cache builds lock the build directory too, and
// keep nothing outside their outputs.
func TestNoCacheLocks(t *testing.T) {
	p := newProject(t, "p", "inputs: [vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll")
	release := lockBuildDir(t, filepath.Join(p.dir, "out"))
	_, done := startWaiting(t, p, "--no-cache")
	if p.exists("out/device_images.o") {
		t.Error("the build ran while the lock was held")
	}
	release()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !p.exists("out/device_images.o") || p.exists("out/.sycbuild") {
		t.Errorf("after --no-cache: output %v, state directory %v", p.exists("out/device_images.o"), p.exists("out/.sycbuild"))
	}
}

// TestDashInputs: inputs whose names start with '-' reach llvm-link as
// files, not options.
func TestDashInputs(t *testing.T) {
	needTools(t, "llvm-link-15")
	p := newProject(t, "p", "inputs: [-help.ll, -o.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll", "image_ops.ll")
	os.Rename(filepath.Join(p.dir, "vector_ops.ll"), filepath.Join(p.dir, "-help.ll"))
	os.Rename(filepath.Join(p.dir, "image_ops.ll"), filepath.Join(p.dir, "-o.ll"))
	script, _, _ := p.run("-n")
	if !strings.Contains(script, " -S -o out/linked.ll ./-help.ll ./-o.ll\n") {
		t.Errorf("dry run:\n%s", script)
	}
	if _, s := p.build(); s.ran != 3 {
		t.Errorf("%+v", s)
	}
	if b := p.read("out/linked.ll"); !strings.Contains(string(b), "source_filename = \"llvm-link\"") {
		t.Errorf("linked.ll:\n%.300s", b)
	}
}

// TestManyInputs: more inputs than a command line can hold reach
// llvm-link through a response file (the stack limit is lowered so that
// the system allows 128 KiB of arguments).
func TestManyInputs(t *testing.T) {
	needTools(t, "llvm-link-19", "sh")
	const n = 1500
	long := strings.Repeat("a_long_directory_name_", 4)
	var cfg strings.Builder
	cfg.WriteString("inputs:\n")
	p := newProject(t, "p", "", "vector_ops.ll")
	for i := range n {
		name := fmt.Sprintf("%s/k%04d.ll", long, i)
		fmt.Fprintf(&cfg, "  - %s\n", name)
		p.write(name, fmt.Sprintf("target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @k%d() {\n  ret void\n}\n", i))
	}
	cfg.WriteString("split: off\ntargets:\n  - kind: llvm_ir\n")
	p.write("targets.yaml", cfg.String())
	cmd := exec.Command("sh", "-c", "ulimit -s 512 && exec \"$0\"", testenv.Sycbuild(t))
	cmd.Dir, cmd.Env = p.dir, p.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if b := p.read("out/linked.ll"); strings.Count(string(b), "define spir_kernel") != n {
		t.Errorf("linked.ll does not define the %d kernels", n)
	}
	if m, _ := filepath.Glob(filepath.Join(p.dir, "out", ".*rsp*")); len(m) > 0 {
		t.Errorf("response file left: %v", m)
	}
}

// TestInputNotIR: an input that is not IR is an error at its own position,
// alone or beside a good input; valid IR without kernels is only skipped.
func TestInputNotIR(t *testing.T) {
	p := newProject(t, "p", "inputs: [junk.ll, vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll")
	p.write("junk.ll", "\x7fELF\x02\x01\x01")
	p.expectFailure(2, "junk.ll:1:1: not LLVM IR: unexpected byte 0x7f (targets.yaml:1:10: inputs[0])\n")
	p.write("targets.yaml", "inputs: [junk.ll]\ntargets:\n  - kind: llvm_ir\n")
	p.write("junk.ll", "; looks like IR\nint main() { return 0; }\n")
	p.expectFailure(2, "junk.ll:2:1: not LLVM IR: expected a top-level entity (define, declare, @global, !metadata, …), found \"int main() { return \" (targets.yaml:1:10: inputs[0])\n")
}

// TestNoOpRebuildDoesNotRescan: an input unchanged since the last build
// (size and modification time) is not read again.
func TestNoOpRebuildDoesNotRescan(t *testing.T) {
	p := newProject(t, "p", "inputs: [vector_ops.ll]\ntargets:\n  - kind: llvm_ir\n", "vector_ops.ll")
	p.build()
	// Garbage of the same size and time: read, it would not be IR.
	path := filepath.Join(p.dir, "vector_ops.ll")
	fi, _ := os.Stat(path)
	os.WriteFile(path, []byte(strings.Repeat("\x00", int(fi.Size()))), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if _, s := p.build(); s.ran != 0 {
		t.Errorf("no-op rebuild: %+v", s)
	}
}

// TestKernelNameWithNewline: a kernel whose name cannot be written in the
// .sym file is refused, not written as two symbols.
func TestKernelNameWithNewline(t *testing.T) {
	p := newProject(t, "p", "inputs: [k.ll]\ntargets:\n  - kind: llvm_ir\n")
	p.write("k.ll", "target triple = \"spir64-unknown-unknown\"\ndefine spir_kernel void @\"k\\0Afake\"() {\n  ret void\n}\n")
	_, stderr, code := p.run()
	if code != 1 || !strings.Contains(stderr, `kernel name "k\nfake" cannot be written in a .sym file`) {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}
