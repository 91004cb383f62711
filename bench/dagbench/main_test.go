package main

import (
	"reflect"
	"testing"
)

func TestModuleJobs(t *testing.T) {
	// What a -v build prints, two jobs interleaved as on -j 2.
	log := `sycbuild: jobs: -j 2
/b/sycbuild sycl-post-link -split=kernel -o out/module.table device.ll
[1/5] sycl-post-link
/t/llvm-as out/module_0.ll -o -
/t/llvm-spirv '-spirv-ext=-all,+SPV_X' - -o out/module_0.spv
/t/llvm-as out/module_1.ll -o -
/t/llvm-spirv '-spirv-ext=-all,+SPV_X' - -o out/module_1.spv
/t/spirv-val out/module_1.spv
/t/spirv-val out/module_0.spv
/t/ocloc compile -file out/module_0.spv -output out/module_0.bin
[3/6] ocloc out/module_0.ll
/t/ocloc compile -file out/module_1.spv -output out/module_1.bin
[4/6] ocloc out/module_1.ll
/b/sycbuild clang-offload-wrapper -o out/device_images.o out/module_0.bin
`
	got, err := moduleJobs(log, "/b/sycbuild")
	if err != nil {
		t.Fatal(err)
	}
	job := func(i string) [][][]string {
		return [][][]string{
			{{"/t/llvm-as", "out/module_" + i + ".ll", "-o", "-"}, {"/t/llvm-spirv", "-spirv-ext=-all,+SPV_X", "-", "-o", "out/module_" + i + ".spv"}},
			{{"/t/spirv-val", "out/module_" + i + ".spv"}},
			{{"/t/ocloc", "compile", "-file", "out/module_" + i + ".spv", "-output", "out/module_" + i + ".bin"}},
		}
	}
	want := [][][][]string{job("0"), job("1")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moduleJobs:\n got %q\nwant %q", got, want)
	}
}
