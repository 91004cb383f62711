package offloadwrapper

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestArgsRoundTrip: Parse reads back what Args renders, also for groups
// whose annotations equal the group's before (which Args must still end).
func TestArgsRoundTrip(t *testing.T) {
	sycl := func(target, format string, files ...string) Input {
		return Input{Annotation: Annotation{Kind: "sycl", Target: target, Format: format}, Files: files}
	}
	build := Defaults()
	build.Output, build.OutputFormat, build.Host, build.Batch = "out/device_images.o", "elf", "x86_64-unknown-linux-gnu", true
	build.Inputs = []Input{sycl("llvm_spir64", "none", "out/llvm_ir/module.table"), sycl("spir64", "spirv", "out/spir64/images.table")}

	all := Options{
		Output: "-", OutputFormat: "bitcode", Host: "aarch64-unknown-linux-gnu", NoRegFuncs: true,
		DescName: "d", Verbose: true, Compress: true, CompressionLevel: 3, CompressionThreshold: 0,
		OffloadBinary: true, SPIRVFallback: true, NativeCPU: true,
		Inputs: []Input{
			{Annotation: Annotation{Kind: "sycl", Target: "spir64", Format: "spirv", CompileOpts: "-g", LinkOpts: "-cl-denorms-are-zero",
				Entries: "a.sym", Properties: "a.prop"}, Files: []string{"a.spv", "a_mf.txt"}},
			{Annotation: Annotation{Kind: "sycl", Target: "spir64", Format: "spirv", CompileOpts: "-g", LinkOpts: "-cl-denorms-are-zero",
				Entries: "a.sym", Properties: "a.prop"}, Files: []string{"b.spv"}},
			{Annotation: Annotation{Kind: "openmp", Target: "xxx", Format: "native"}, Files: []string{"c.bin"}},
		},
	}
	same := Defaults()
	same.Output = "o"
	same.Inputs = []Input{sycl("spir64", "none", "a"), sycl("spir64", "none", "b"), sycl("spir64", "native", "c", "d")}
	for name, o := range map[string]Options{"build": build, "all": all, "same annotations": same} {
		args := Args(o)
		got, err := Parse("clang-offload-wrapper", args, io.Discard)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", name, args, err)
			continue
		}
		if !reflect.DeepEqual(got, o) {
			t.Errorf("%s: Parse(Args(o)) differs from o:\nargs %q\ngot  %+v\nwant %+v", name, args, got, o)
		}
	}
}

// TestArgsOfBuildLines: the command lines the build has printed render
// back byte for byte.
func TestArgsOfBuildLines(t *testing.T) {
	for _, line := range []string{
		"-o out/device_images.o --output-format=elf -host=x86_64-unknown-linux-gnu -batch -kind=sycl -target=llvm_spir64 -format=none out/llvm_ir/module.table -target=spir64 -format=spirv out/spir64/images.table -target=spir64_gen -format=native out/spir64_gen/images.table",
		"-o out/device_images.o --output-format=elf -host=x86_64-unknown-linux-gnu -batch -kind=sycl --offload-binary --spirv-fallback -target=spir64_gen -format=native out/spir64_gen/images.table",
	} {
		o, err := Parse("clang-offload-wrapper", strings.Fields(line), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := strings.Join(Args(o), " "); got != line {
			t.Errorf("Args(Parse(%q)):\ngot  %s", line, got)
		}
	}
}
