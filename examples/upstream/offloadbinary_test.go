package upstream

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/offloadbin"
	"github.com/sycbuild/sycbuild/wrapper"
)

// TestOffloadBinaryDescriptor is the differential test of sycbuild's
// offload-binary form against LLVM 22: the SPIR-V images of device.ll
// (split per kernel and per source) are wrapped by sycbuild's wrapper
// (Options.OffloadBinary) and by clang-linker-wrapper-22's wrapSYCLBinaries,
// and the descriptors the two objects register, printed field by field by
// testdata/desc.c, must be the same. Both objects also carry one weak
// .offloading.entry.<kernel> per entry in llvm_offload_entries. sycbuild's
// .llvm.offloading section must be exactly the OffloadBinary containers of
// the images (what package offloadbin writes, and clang-sycl-linker-22
// would: triple, arch, symbols), and llvm-objdump-22 --offloading must list
// them.
//
// The objects differ where the descriptor does not show it: LLVM's
// .llvm.offloading holds the raw images (which llvm-objdump cannot read as
// OffloadBinaries), sycbuild's the containers, with the descriptor pointing
// at each image inside its container; LLVM puts the entry names in
// .llvm.rodata.offloading and the strings in mergeable .rodata.str
// sections, sycbuild in .rodata; LLVM's constructor is in .init_array.1,
// sycbuild's in .init_array.00001 (the same priority); LLVM writes an
// .eh_frame for the two functions, sycbuild none (they are tail calls).
// An image with property sets (from a .prop) gets them in its descriptor
// from sycbuild, which LLVM 22 never writes.
func TestOffloadBinaryDescriptor(t *testing.T) {
	dir := t.TempDir()
	src, _ := filepath.Abs("device.ll")
	rows := postLink(t, filepath.Join(dir, "kernel"), src, "-split=kernel", "-spec-const=native")
	rows = append(rows, postLink(t, filepath.Join(dir, "source"), src, "-split=source", "-spec-const=native")...)
	var obs []*offloadbin.Image
	var ims []wrapper.Image
	for _, r := range rows {
		spv, _ := backend(t, dir, r[0], spirvTriple)
		data, err := os.ReadFile(spv)
		if err != nil {
			t.Fatal(err)
		}
		syms := readLines(t, r[2])
		ob, err := offloadbin.SYCLImage(offloadbin.ImageNone, "spirv64-unknown-unknown", "", syms, "", data)
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, ob)
		ims = append(ims, wrapper.Image{Kind: wrapper.OFK_SYCL, Target: "spir64", Format: wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV, File: spv, Entries: syms})
	}
	llvm := llvmDescriptor(t, dir, src, obs)
	ours := filepath.Join(dir, "ours.o")
	if err := wrapper.WriteFile(ours, ims, wrapper.Options{Host: "x86_64-unknown-linux-gnu", OffloadBinary: true}); err != nil {
		t.Fatal(err)
	}
	if got := dumpDescriptor(t, dir, "ours.o"); got != llvm {
		t.Errorf("sycbuild's descriptor:\n%s\nclang-linker-wrapper-22's:\n%s", got, llvm)
	}
	if got, want := entrySymbols(t, ours), entrySymbols(t, filepath.Join(dir, "a.out.sycl.image.wrapper.o")); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("offload entry symbols %q, LLVM's %q", got, want)
	}

	f, err := elf.Open(ours)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sec := f.Section(".llvm.offloading")
	if sec == nil || sec.Type != elf.SectionType(0x6fff4c0b) || sec.Flags&elf.SHF_ALLOC == 0 || sec.Addralign != 8 {
		t.Fatalf(".llvm.offloading missing or not SHT_LLVM_OFFLOADING, SHF_ALLOC, align 8: %+v", sec)
	}
	got, err := sec.Data()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := offloadbin.Marshal(obs...)
	if !bytes.Equal(got, want) {
		t.Errorf(".llvm.offloading is not the images' OffloadBinaries (%d bytes, want %d)", len(got), len(want))
	}
	dump := tool(t, dir, "llvm-objdump-22", "--offloading", ours)
	if n := strings.Count(dump, "OFFLOADING IMAGE ["); n != len(obs) || strings.Count(dump, "triple          spirv64-unknown-unknown\nproducer        sycl\n") != len(obs) {
		t.Errorf("llvm-objdump-22 --offloading lists %d images, want %d SYCL SPIR-V ones:\n%s", n, len(obs), dump)
	}
}

// entrySymbols lists the object's .offloading.entry.* symbols with their
// binding and section.
func entrySymbols(t *testing.T, obj string) []string {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range syms {
		if strings.HasPrefix(s.Name, ".offloading.entry.") && int(s.Section) < len(f.Sections) {
			out = append(out, s.Name+" "+elf.ST_BIND(s.Info).String()+" "+f.Sections[s.Section].Name)
		}
	}
	slices.Sort(out)
	return out
}
