// Package wrappertest checks wrapper objects the way a program uses them: it
// links an object with the C harness of wrapper/testdata (which stands in
// for the SYCL runtime and prints every field it is handed), runs the
// program, and computes from the inputs the output the harness must print.
// The wrapper's own tests, the clang-offload-wrapper command's tests and the
// conformance cases share it.
package wrappertest

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/wrapper"
)

// HarnessSource returns the path of the C harness.
func HarnessSource(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("wrappertest: cannot locate the source tree")
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata", "harness.c")
}

// Toolchain is how to build and run a harness program for one host.
type Toolchain struct {
	Host   string   // the -host triple of the objects it links
	CC     string   // C compiler driver
	Runner []string // command prefix that runs a program (empty: run directly)
}

// Native returns the toolchain of this machine (cc, x86-64), or skips (fails
// in CI) when cc is missing or the machine is not x86-64.
func Native(t testing.TB) Toolchain {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("the native harness runs on x86-64 hosts (this one is %s)", runtime.GOARCH)
	}
	return Toolchain{Host: "x86_64-unknown-linux-gnu", CC: testenv.Tool(t, "cc")}
}

// AArch64 returns the cross toolchain: aarch64-linux-gnu-gcc, and
// qemu-aarch64 with the target's sysroot (the directory above the one
// holding the compiler's dynamic loader) as its -L prefix.
func AArch64(t testing.TB) Toolchain {
	t.Helper()
	cc := testenv.Tool(t, "aarch64-linux-gnu-gcc")
	qemu := testenv.Tool(t, "qemu-aarch64")
	out, err := exec.Command(cc, "-print-file-name=ld-linux-aarch64.so.1").Output()
	loader := filepath.Clean(strings.TrimSpace(string(out)))
	if err != nil || !filepath.IsAbs(loader) {
		t.Fatalf("%s -print-file-name=ld-linux-aarch64.so.1: %q, %v", cc, out, err)
	}
	sysroot := filepath.Dir(filepath.Dir(loader)) // <sysroot>/lib/ld-linux-aarch64.so.1
	probe := exec.Command(cc, "-x", "c", "-fsyntax-only", "-")
	probe.Stdin = strings.NewReader("#include <stdio.h>\n#include <stdint.h>\n")
	if out, err := probe.CombinedOutput(); err != nil {
		testenv.Missing(t, "the aarch64 C library headers (Debian package libc6-dev-arm64-cross): "+strings.TrimSpace(string(out)))
	}
	return Toolchain{Host: "aarch64-unknown-linux-gnu", CC: cc, Runner: []string{qemu, "-L", sysroot}}
}

// Link builds the harness with objs into dir/name and returns its path.
// descSymbol, when set, makes main register that global descriptor itself.
// extra are further compiler/linker arguments.
func (tc Toolchain) Link(t testing.TB, dir, name string, pie bool, descSymbol string, objs []string, extra ...string) string {
	t.Helper()
	exe := filepath.Join(dir, name)
	args := []string{"-O1", "-Wall", "-Werror", "-o", exe, HarnessSource(t)}
	if pie {
		args = append(args, "-fPIE", "-pie")
	} else {
		args = append(args, "-fno-PIE", "-no-pie")
	}
	if descSymbol != "" {
		args = append(args, fmt.Sprintf("-DHARNESS_DESC=%q", descSymbol))
	}
	args = append(args, objs...)
	args = append(args, "-Wl,--fatal-warnings")
	args = append(args, extra...)
	cmd := exec.Command(tc.CC, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return exe
}

// Run runs exe and returns its output. With stem set the harness writes
// image i's bytes to the file <stem>.<i>.
func (tc Toolchain) Run(t testing.TB, exe, stem string) string {
	t.Helper()
	argv := append(append([]string{}, tc.Runner...), exe)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = os.Environ()
	if stem != "" {
		cmd.Env = append(cmd.Env, "HARNESS_IMAGE_STEM="+stem)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(argv, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// Expect returns what the harness prints for an object made by
// wrapper.Write(images, opt): registration before main and unregistration
// after it, or, without registration functions, main registering the global
// descriptor itself. Every value comes from the inputs: image and manifest
// files are read, hashed and hex-encoded here. A compressed image (per opt's
// rule) is checked instead: its bytes, written by the harness to
// <stem>.<i>, must decompress to the input file, and the expected line
// describes them.
func Expect(t testing.TB, images []wrapper.Image, opt wrapper.Options, stem string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "register 0 version=1 images=%d host_entries=null,null\n", len(images))
	for i, img := range images {
		data := readFile(t, img.File)
		format := img.Format
		if opt.Compress && len(data) > 0 && int64(len(data)) >= opt.CompressionThreshold {
			format = wrapper.SYCL_DEVICE_BINARY_TYPE_COMPRESSED_NONE
			if stem == "" {
				t.Fatalf("image %d is compressed: Expect needs the stem of the harness's image files", i)
			}
			data = checkCompressed(t, fmt.Sprintf("%s.%d", stem, i), data)
		}
		fmt.Fprintf(&b, "image %d version=2 kind=%d format=%d\n", i, img.Kind, format)
		fmt.Fprintf(&b, " target %s\n compile_opts %s\n link_opts %s\n", quote(img.Target), quote(img.CompileOptions), quote(img.LinkOptions))
		if img.Manifest != "" {
			m := readFile(t, img.Manifest)
			fmt.Fprintf(&b, " manifest size=%d bytes=%x\n", len(m), m)
		} else {
			b.WriteString(" manifest none\n")
		}
		h := fnv.New64a()
		h.Write(data)
		fmt.Fprintf(&b, " data size=%d fnv1a64=%016x\n", len(data), h.Sum64())
		if img.Entries != nil {
			fmt.Fprintf(&b, " entries %d\n", len(img.Entries))
			for j, e := range img.Entries {
				fmt.Fprintf(&b, " entry %d addr=null name=%s size=0 flags=0 reserved=0\n", j, quote(e))
			}
		} else {
			b.WriteString(" entries none\n")
		}
		if len(img.PropertySets) > 0 { // no sets: a null pair, as in clang-offload-wrapper
			fmt.Fprintf(&b, " propsets %d\n", len(img.PropertySets))
			for k, s := range img.PropertySets {
				fmt.Fprintf(&b, " propset %d name=%s props=%d\n", k, quote(s.Name), len(s.Properties))
				for _, p := range s.Properties {
					if p.Type == wrapper.SYCL_PROPERTY_TYPE_UINT32 {
						fmt.Fprintf(&b, "  prop name=%s type=1 size=%d value=null\n", quote(p.Name), p.Uint32)
					} else {
						fmt.Fprintf(&b, "  prop name=%s type=%d size=%d value=%x\n", quote(p.Name), p.Type, len(p.Bytes), p.Bytes)
					}
				}
			}
		} else {
			b.WriteString(" propsets none\n")
		}
	}
	dump := b.String()
	if opt.NoRegFuncs {
		if opt.DescName == "" {
			return "main\n"
		}
		return "main\n" + dump + "unregister 0 same_descriptor=1\n"
	}
	return dump + "main\nunregister 0 same_descriptor=1\n"
}

// checkCompressed checks that the file called name is one zstd frame that
// records its content size and decompresses to want (with this module's
// decoder, and with the zstd command where it is installed), and returns its
// bytes.
func checkCompressed(t testing.TB, name string, want []byte) []byte {
	t.Helper()
	got := readFile(t, name)
	var h zstd.Header
	if err := h.Decode(got); err != nil {
		t.Fatalf("%s: not a zstd frame: %v", name, err)
	}
	if !h.HasFCS || h.FrameContentSize != uint64(len(want)) {
		t.Errorf("%s: frame content size %v/%d, want %d (the runtime needs it)", name, h.HasFCS, h.FrameContentSize, len(want))
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	plain, err := dec.DecodeAll(got, nil)
	if err != nil || !bytes.Equal(plain, want) {
		t.Fatalf("%s: decompresses to %d bytes (%v), want the %d bytes of the input", name, len(plain), err, len(want))
	}
	if testenv.HaveTool("zstd") { // the reference decoder, where installed
		plain, err := exec.Command("zstd", "-q", "-d", "-c", name).Output()
		if err != nil || !bytes.Equal(plain, want) {
			t.Fatalf("zstd -d %s: %d bytes (%v), want the %d bytes of the input", name, len(plain), err, len(want))
		}
	}
	return got
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// quote writes s as the harness does: in double quotes, with \xHH for bytes
// outside printable ASCII and for '"' and '\'.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := range len(s) {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			fmt.Fprintf(&b, `\x%02x`, c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// HashFile returns the size and FNV-1a 64 hash of a file, read in a stream
// (for images too large to read whole).
func HashFile(t testing.TB, name string) (int64, uint64) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := fnv.New64a()
	n, err := io.Copy(h, f)
	if err != nil {
		t.Fatal(err)
	}
	return n, h.Sum64()
}
