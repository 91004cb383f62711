package upstream

import (
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/offloadbin"
)

// fakeSYCLLinker stands in for clang-sycl-linker under
// clang-linker-wrapper-22: it writes the OffloadBinary named by
// $SYCL_IMAGES where -o says, so that the wrapper registers those images.
const fakeSYCLLinker = `#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
exec cp "$SYCL_IMAGES" "$out"
`

// TestWrapSYCLBinaries gives LLVM 22's wrapSYCLBinaries (inside
// clang-linker-wrapper-22) an OffloadBinary that offloadbin wrote — the
// SPIR-V images of device.ll split per kernel and per source, with the
// strings SYCLImage makes —
// links the wrapped object with testdata/desc.c and checks every field of
// the descriptor its constructor registers: one device image per binary,
// with its bytes, its triple and one offload entry per "symbols" name.
func TestWrapSYCLBinaries(t *testing.T) {
	dir := t.TempDir()
	src, _ := filepath.Abs("device.ll")
	// The per-kernel images, then the per-source one, whose four kernels
	// make a "symbols" string of four lines.
	rows := postLink(t, filepath.Join(dir, "kernel"), src, "-split=kernel", "-spec-const=native")
	rows = append(rows, postLink(t, filepath.Join(dir, "source"), src, "-split=source", "-spec-const=native")...)
	var images []*offloadbin.Image
	for _, r := range rows {
		spv, _ := backend(t, dir, r[0], spirvTriple)
		data, err := os.ReadFile(spv)
		if err != nil {
			t.Fatal(err)
		}
		im, err := offloadbin.SYCLImage(offloadbin.ImageNone, "spirv64-unknown-unknown", "", readLines(t, r[2]), "", data)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, im)
	}
	got := llvmDescriptor(t, dir, src, images)
	if want := wantDescriptor(images); got != want {
		t.Errorf("the descriptor of clang-linker-wrapper-22's object:\n%s\nwant\n%s", got, want)
	}
}

// llvmDescriptor runs LLVM 22's wrapSYCLBinaries on images (src is the
// device module the host object claims to carry) and returns what
// testdata/desc.c prints of the descriptor it registers.
func llvmDescriptor(t *testing.T, dir, src string, images []*offloadbin.Image) string {
	t.Helper()
	b, err := offloadbin.Marshal(images...)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	imagesPath := write("images.bin", b, 0o644)

	// The host object: what a SYCL compile embeds for the link, device
	// bitcode in an OffloadBinary in .llvm.offloading.
	tool(t, dir, "llvm-as-22", src, "-o", "device.bc")
	bc, err := os.ReadFile(filepath.Join(dir, "device.bc"))
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := offloadbin.Marshal(&offloadbin.Image{ImageKind: offloadbin.ImageBitcode, OffloadKind: offloadbin.OffloadSYCL,
		Strings: []offloadbin.String{{Key: "triple", Value: "spirv64-unknown-unknown"}, {Key: "arch", Value: ""}}, Data: bc})
	var c strings.Builder
	c.WriteString("__attribute__((section(\".llvm.offloading\"), used, aligned(8)))\nconst unsigned char device[] = {")
	for i, x := range dev {
		if i%32 == 0 {
			c.WriteString("\n")
		}
		fmt.Fprintf(&c, "%d,", x)
	}
	c.WriteString("};\n")
	write("host.c", []byte(c.String()), 0o644)
	tool(t, dir, "clang-22", "-c", "host.c", "-o", "host.o")

	fake := filepath.Join(dir, "fake")
	if err := os.Mkdir(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	write("fake/clang-sycl-linker", []byte(fakeSYCLLinker), 0o755)
	wrapper := testenv.Tool(t, "clang-linker-wrapper-22")
	// The host link is not needed: the wrapped object is what is checked.
	noLink := testenv.Tool(t, "true")
	cmd := exec.Command(wrapper, "--host-triple=x86_64-unknown-linux-gnu", "--save-temps", "--linker-path="+noLink, "host.o", "-o", "a.out")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "SYCL_IMAGES="+imagesPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang-linker-wrapper-22: %v\n%s", err, out)
	}
	return dumpDescriptor(t, dir, "a.out.sycl.image.wrapper.o")
}

// dumpDescriptor links the object obj (in dir) with testdata/desc.c and
// returns what it prints.
func dumpDescriptor(t *testing.T, dir, obj string) string {
	t.Helper()
	harness, _ := filepath.Abs(filepath.Join("testdata", "desc.c"))
	exe := strings.TrimSuffix(obj, ".o") + ".desc"
	tool(t, dir, "cc", "-Wall", "-o", exe, harness, obj)
	return tool(t, dir, filepath.Join(dir, exe))
}

// wantDescriptor is what LLVM 22's wrapSYCLBinaries registers for images.
func wantDescriptor(images []*offloadbin.Image) string {
	var want strings.Builder
	fmt.Fprintf(&want, "desc version=1 images=%d host_entries=null\n", len(images))
	for i, im := range images {
		h := fnv.New64a()
		h.Write(im.Data)
		fmt.Fprintf(&want, "image %d version=3 offload_kind=%d format=%d arch=%s compile=\"\" link=\"\" size=%d fnv=%016x properties=null\n",
			i, im.OffloadKind, im.ImageKind, im.Triple(), len(im.Data), h.Sum64())
		for _, s := range im.Symbols() {
			fmt.Fprintf(&want, "entry %d name=%s version=1 kind=%d flags=0 addr=null size=0 data=0\n", i, s, offloadbin.OffloadSYCL)
		}
	}
	fmt.Fprintf(&want, "unregister images=%d\n", len(images))
	return want.String()
}
