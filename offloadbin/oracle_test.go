package offloadbin

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// run runs a tool in dir and returns its standard output; a failure shows
// the command and its output.
func run(t *testing.T, dir, tool string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.Tool(t, tool), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", tool, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// roundTrip reads b, writes what it read and requires the same bytes.
func roundTrip(t *testing.T, what string, b []byte) []*Image {
	t.Helper()
	images, err := Read(b)
	if err != nil {
		t.Fatalf("reading %s: %v", what, err)
	}
	again, err := Marshal(images...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, b) {
		t.Errorf("%s: writing what was read gives other bytes (%d, want %d)", what, len(again), len(b))
	}
	return images
}

// TestReadPackager packs images with llvm-offload-binary-22 and its old
// name clang-offload-packager-22, and reads them: every image, kind and
// string must be there, and writing them back gives the tool's bytes.
func TestReadPackager(t *testing.T) {
	for _, tool := range []string{"llvm-offload-binary-22", "clang-offload-packager-22"} {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"a.o": "object bytes", "b.bc": "BC\xc0\xde", "c.cubin": "", "d.s": "// ptx, 17 bytes\n", "e.spv": "\x03\x02\x23\x07spirv"}
			for f, data := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{
				"--image=file=a.o,triple=spirv64,arch=pvc,kind=sycl,symbols=_ZTS1A",
				"--image=file=b.bc,triple=nvptx64-nvidia-cuda,arch=sm_90,kind=cuda,feature=+ptx80",
				"--image=file=c.cubin,triple=amdgcn-amd-amdhsa,arch=gfx90a,kind=hip",
				"--image=file=d.s,triple=x86_64-unknown-linux-gnu,kind=openmp,arch=",
				"--image=file=e.spv,triple=spirv64-intel,kind=sycl,arch=pvc,pvc=arch,tail=pvc",
				"-o", "out.bin",
			}
			run(t, dir, tool, args...)
			b, err := os.ReadFile(filepath.Join(dir, "out.bin"))
			if err != nil {
				t.Fatal(err)
			}
			images := roundTrip(t, tool, b)
			want := []struct {
				kind    ImageKind
				offload OffloadKind
				file    string
				strs    map[string]string
			}{
				{ImageObject, OffloadSYCL, "a.o", map[string]string{"triple": "spirv64", "arch": "pvc", "symbols": "_ZTS1A"}},
				{ImageBitcode, OffloadCUDA, "b.bc", map[string]string{"triple": "nvptx64-nvidia-cuda", "arch": "sm_90", "feature": "+ptx80"}},
				{ImageCubin, OffloadHIP, "c.cubin", map[string]string{"triple": "amdgcn-amd-amdhsa", "arch": "gfx90a"}},
				{ImagePTX, OffloadOpenMP, "d.s", map[string]string{"triple": "x86_64-unknown-linux-gnu", "arch": ""}},
				// llvm-offload-binary-22 knows no extension for SPIR-V.
				{ImageNone, OffloadSYCL, "e.spv", map[string]string{"triple": "spirv64-intel", "arch": "pvc", "pvc": "arch", "tail": "pvc"}},
			}
			if len(images) != len(want) {
				t.Fatalf("%d images, want %d", len(images), len(want))
			}
			for i, w := range want {
				im := images[i]
				got := map[string]string{}
				for _, s := range im.Strings {
					got[s.Key] = s.Value
				}
				if im.ImageKind != w.kind || im.OffloadKind != w.offload || string(im.Data) != files[w.file] || !reflect.DeepEqual(got, w.strs) {
					t.Errorf("image %d: kind %v, offload %v, data %q, strings %v; want %v %v %q %v",
						i, im.ImageKind, im.OffloadKind, im.Data, got, w.kind, w.offload, files[w.file], w.strs)
				}
			}
		})
	}
}

// TestReadSYCLLinker reads what clang-sycl-linker-22 writes for two
// kernels: one SPIR-V image of kind none, offload kind sycl, and the
// strings SYCLImage makes, in the same order; SYCLImage given the same
// symbols and image writes the same bytes.
func TestReadSYCLLinker(t *testing.T) {
	dir := t.TempDir()
	src, err := filepath.Abs("testdata/kernels.ll")
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, "llvm-as-22", src, "-o", "k.bc")
	for _, arch := range []string{"", "pvc"} {
		args := []string{"--triple=spirv64", "-o", "out.bin", "k.bc"}
		if arch != "" {
			args = append(args, "--arch="+arch)
		}
		run(t, dir, "clang-sycl-linker-22", args...)
		b, err := os.ReadFile(filepath.Join(dir, "out.bin"))
		if err != nil {
			t.Fatal(err)
		}
		images := roundTrip(t, "clang-sycl-linker-22 output", b)
		if len(images) != 1 {
			t.Fatalf("%d images, want 1", len(images))
		}
		im := images[0]
		if !bytes.HasPrefix(im.Data, []byte{0x03, 0x02, 0x23, 0x07}) {
			t.Errorf("the image does not start with SPIR-V's magic: % x", im.Data[:min(4, len(im.Data))])
		}
		mine, err := SYCLImage(ImageNone, "spirv64", arch, []string{"_ZTS5Alpha", "_ZTS4Beta"}, "", im.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(im.Strings, mine.Strings) || im.ImageKind != mine.ImageKind || im.OffloadKind != mine.OffloadKind || im.Flags != 0 {
			t.Errorf("arch %q: clang-sycl-linker-22 wrote %v %v %+v; SYCLImage makes %v %v %+v",
				arch, im.ImageKind, im.OffloadKind, im.Strings, mine.ImageKind, mine.OffloadKind, mine.Strings)
		}
		if out, _ := Marshal(mine); !bytes.Equal(out, b) {
			t.Errorf("arch %q: SYCLImage's binary differs from clang-sycl-linker-22's", arch)
		}
	}
}

// TestToolsReadOurs writes binaries, embeds them in an object's
// .llvm.offloading section with clang-22 and checks what
// llvm-objdump-22 --offloading prints for each, then extracts every image
// with llvm-offload-binary-22 and compares its bytes.
func TestToolsReadOurs(t *testing.T) {
	dir := t.TempDir()
	spv, _ := SYCLImage(ImageNone, "spirv64-unknown-unknown", "", []string{"_ZTS1A", "_ZTS1B"}, "[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n", []byte("\x03\x02\x23\x07 not really SPIR-V"))
	aot, _ := SYCLImage(ImageObject, "spir64_gen-unknown-unknown", "pvc", []string{"_ZTS1A"}, "", bytes.Repeat([]byte{0xab}, 37))
	bc := &Image{ImageKind: ImageBitcode, OffloadKind: OffloadOpenMP, Strings: []String{{"triple", "x86_64-unknown-linux-gnu"}, {"arch", "native"}}, Data: []byte("BC\xc0\xde")}
	images := []*Image{spv, aot, bc}
	b, err := Marshal(images...)
	if err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	c.WriteString("__attribute__((section(\".llvm.offloading\"), used, aligned(8)))\nconst unsigned char offloading[] = {")
	for i, x := range b {
		if i%16 == 0 {
			c.WriteString("\n ")
		}
		fmt.Fprintf(&c, " %d,", x)
	}
	c.WriteString("\n};\n")
	if err := os.WriteFile(filepath.Join(dir, "embed.c"), []byte(c.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "clang-22", "-c", "embed.c", "-o", "embed.o")
	dump := run(t, dir, "llvm-objdump-22", "--offloading", "embed.o")
	// llvm-objdump's names for the image kinds (OffloadDump.cpp).
	kindName := map[ImageKind]string{ImageNone: "<none>", ImageObject: "elf", ImageBitcode: "llvm ir"}
	var want strings.Builder
	for i, im := range images {
		fmt.Fprintf(&want, "\nOFFLOADING IMAGE [%d]:\nkind            %s\narch            %s\ntriple          %s\nproducer        %s\n",
			i, kindName[im.ImageKind], im.Arch(), im.Triple(), im.OffloadKind)
	}
	if _, got, _ := strings.Cut(dump, "file format elf64-x86-64\n"); got != want.String() {
		t.Errorf("llvm-objdump-22 --offloading printed\n%s\nwant\n%s", got, want.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "all.bin"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, im := range images {
		out := fmt.Sprintf("img%d", i)
		run(t, dir, "llvm-offload-binary-22", "all.bin", "--image=file="+out+",triple="+im.Triple()+",arch="+im.Arch())
		got, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, im.Data) {
			t.Errorf("image %d extracted by llvm-offload-binary-22: %q, want %q", i, got, im.Data)
		}
	}
}
