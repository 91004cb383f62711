package llvmforeach

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/clopt"
)

// The test binary doubles as llvm-foreach when this variable is set, so the
// signal test can run the tool as a process of its own.
const asTool = "SYCBUILD_TEST_AS_LLVM_FOREACH"

func TestMain(m *testing.M) {
	if os.Getenv(asTool) == "1" {
		os.Exit(Main("llvm-foreach", os.Args[1:], clopt.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
	}
	os.Exit(m.Run())
}

func run(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main("llvm-foreach", args, clopt.Stdio{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "a.list")
	list3 := filepath.Join(dir, "b.list")
	os.WriteFile(list, []byte("one\ntwo\n"), 0o644)
	os.WriteFile(list3, []byte("x\ny\nz\n"), 0o644)
	cases := []struct {
		stdin     string
		args      []string
		code      int
		out, errs string
	}{
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "--", "echo", "<{}>"}, 0, "<one>\n<two>\n", ""},
		{"", []string{"-j", "2", "--in-replace", "{}", "--in-file-list", list, "--", "echo", "{}"}, 0, "", ""}, // order checked below
		{"s1\n\ns2\n", []string{"--in-replace=@", "--in-file-list=-", "--", "echo", "@"}, 0, "s1\ns2\n", ""},
		{"", []string{"--in-replace={}", "--in-replace=%", "--in-file-list=" + list, "--", "echo", "{}"}, 1, "", "llvm-foreach: Number of input file lists and input path replaces don't match.\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "--jobs=0", "--", "echo", "{}"}, 1, "", "llvm-foreach: Number of parallel threads should be a positive integer\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "-j", "x", "--", "echo", "{}"}, 1, "", "llvm-foreach: for the --jobs option: 'x' value invalid for uint argument!\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "--out-replace=OUT", "--", "echo", "{}"}, 1, "", "llvm-foreach: Couldn't find replace string for output in the command.\n"},
		{"", []string{"--in-replace={}", "--in-replace=%", "--in-file-list=" + list, "--in-file-list=" + list3, "--", "echo", "{}", "%"}, 1, "", "llvm-foreach: All input file lists must have same number of lines! (" + list + " has 2, " + list3 + " has 3)\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "--", "no-such-program-here", "{}"}, 1, "", "llvm-foreach: exec: \"no-such-program-here\": executable file not found in $PATH\n"},
		{"", []string{"--in-replace={}", "--", "echo", "{}"}, 1, "", "llvm-foreach: for the --in-file-list option: must be specified at least once!\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list}, 1, "", "llvm-foreach: Not enough positional command line arguments specified!\nMust specify at least 1 positional argument: See: llvm-foreach --help\n"},
		{"", []string{"--in-replace={}", "--in-file-list=" + list, "--", "sh", "-c", "echo $0; exit 4", "{}"}, 4, "one\ntwo\n", "llvm-foreach: command failed (exit status 4): sh -c 'echo $0; exit 4' one\nllvm-foreach: command failed (exit status 4): sh -c 'echo $0; exit 4' two\n"},
	}
	for _, c := range cases {
		code, out, errs := run(c.stdin, c.args...)
		if c.out == "" && code == 0 {
			if out != "one\ntwo\n" && out != "two\none\n" {
				t.Errorf("%q: stdout %q", c.args, out)
			}
			out = ""
		}
		if code != c.code || out != c.out || errs != c.errs {
			t.Errorf("%q:\ngot  %d %q %q\nwant %d %q %q", c.args, code, out, errs, c.code, c.out, c.errs)
		}
	}
}

func TestHelpSaysWhatIsBetter(t *testing.T) {
	code, out, _ := run("", "--help")
	for _, want := range []string{"Better than the reference", "no polling", "--deterministic", "--in-file-list=<filename>", "--jobs=<n>", "SIGINT/SIGTERM"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestDeterministicNames(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "in.list")
	os.WriteFile(list, []byte("a\nb\nc\n"), 0o644)
	outList := filepath.Join(dir, "out.list")
	for range 2 { // the same names on every run
		code, _, errs := run("", "--deterministic", "--out-dir="+dir, "--in-replace={}", "--in-file-list="+list,
			"--out-replace=img.spv", "--out-ext=spv", "--out-file-list="+outList, "-j", "3", "--", "sh", "-c", `echo "$0" > "$1"`, "{}", "img.spv")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		got, _ := os.ReadFile(outList)
		want := filepath.Join(dir, "img_0.spv") + "\n" + filepath.Join(dir, "img_1.spv") + "\n" + filepath.Join(dir, "img_2.spv") + "\n"
		if string(got) != want {
			t.Errorf("out list %q, want %q", got, want)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "img_2.spv")); string(b) != "c\n" {
			t.Errorf("img_2.spv holds %q", b)
		}
	}
}

// TestSIGTERM sends SIGTERM to a running llvm-foreach: it stops its
// children, removes their unfinished outputs, writes no output list and
// exits with 128+SIGTERM.
func TestSIGTERM(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "in.list")
	os.WriteFile(list, []byte("a\nb\n"), 0o644)
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(os.Args[0], "--deterministic", "--out-dir="+dir, "--in-replace={}", "--in-file-list="+list,
		"--out-replace=OUT", "--out-file-list="+filepath.Join(dir, "out.list"), "-j", "2", "--",
		"sh", "-c", `echo partial > "$1"; echo "$$" > `+fifo+`; exec sleep 60`, "{}", "OUT")
	cmd.Env = append(os.Environ(), asTool+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timeout := time.AfterFunc(30*time.Second, func() { f.Close(); cmd.Process.Kill() })
	defer timeout.Stop()
	lines := bufio.NewScanner(f)
	for n := 0; n < 2; n++ {
		if !lines.Scan() {
			t.Fatal("the children did not start")
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("exit: %v, want status %d", err, 128+int(syscall.SIGTERM))
	}
	if !strings.Contains(stderr.String(), "llvm-foreach: interrupted (terminated): stopped the commands and removed their unfinished outputs") {
		t.Errorf("stderr: %s", stderr.String())
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "in.list" && e.Name() != "started" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestOutExtOutsideRefused: an --out-ext that would put outputs outside
// their directory ('/' or "..") is refused, in deterministic mode and not,
// and nothing is written.
func TestOutExtOutsideRefused(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "a.list")
	os.WriteFile(list, []byte("one\n"), 0o644)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	for _, ext := range []string{"../../escaped", "x/y", ".."} {
		for _, det := range []string{"--deterministic", "--deterministic=false"} {
			code, _, errs := run("", "--in-replace={}", "--in-file-list="+list, "--out-replace=OUT", "--out-dir="+out,
				"--out-ext="+ext, det, "--", "sh", "-c", `echo "$1" > "$2"`, "sh", "{}", "OUT")
			if code != 1 || !strings.Contains(errs, "'"+ext+"' holds '/' or '..'") {
				t.Errorf("--out-ext=%s %s: exit %d, %q", ext, det, code, errs)
			}
		}
	}
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("outputs written: %v", ents)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*escaped*")); len(m) > 0 {
		t.Errorf("an output left its directory: %v", m)
	}
}

// TestResponseFile: llvm-foreach expands an @file argument as LLVM's
// tools do (the driver writes long command lines to one).
func TestResponseFile(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "a.list")
	os.WriteFile(list, []byte("one\ntwo\n"), 0o644)
	rsp := filepath.Join(dir, "args.rsp")
	os.WriteFile(rsp, []byte("--in-replace={} \"--in-file-list="+list+"\"\n-- echo 'item: {}'\n"), 0o644)
	if code, out, errs := run("", "@"+rsp); code != 0 || out != "item: one\nitem: two\n" {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
}
