#!/usr/bin/env bash
# What the DPC++ driver runs for
#
#   clang++ -fsycl -fsycl-targets=spir64,spir64_gen -Xsycl-target-backend=spir64_gen "-device pvc" app.cpp
#
# after it has compiled the device code to bitcode (the old offload model, as
# in the driver's own tests: llvm-link → sycl-post-link → file-table-tform →
# llvm-foreach llvm-spirv / ocloc → file-table-tform → clang-offload-wrapper →
# llc → host link), with sycbuild standing in for the four DPC++ tools through
# a directory of links, as `clang++ -fsycl -B <dir>` finds them:
#
#   examples/dpcpp/replay.sh <sycbuild-binary> <work-dir>
#
# Bitcode goes between the steps as the driver has it; sycl-post-link writes
# its modules' bitcode itself, so no llvm-as is needed past the device compile.
# That compile's output, the application's device bitcode, is DEVICE_BC when
# set, else made from the quickstart's text with LLVM_AS. The other tools are
# LLVM's and Intel's own; override them with LLVM_AS, LLVM_LINK, LLVM_SPIRV,
# OCLOC, LLC and CC (the defaults are Debian's names). The program the last
# step links prints every device image it was handed at start-up.
set -euo pipefail
sycbuild=${1:?usage: $0 <sycbuild-binary> <work-dir>}
work=${2:?usage: $0 <sycbuild-binary> <work-dir>}
here=$(cd "$(dirname "$0")" && pwd)
case $sycbuild in
  */*) sycbuild=$(cd "$(dirname "$sycbuild")" && pwd)/$(basename "$sycbuild") ;;
esac
: "${LLVM_AS:=llvm-as-15}" "${LLVM_LINK:=llvm-link-15}" "${LLVM_SPIRV:=llvm-spirv-15}"
: "${OCLOC:=ocloc}" "${LLC:=llc-19}" "${CC:=cc}"

mkdir -p "$work/bin"
cd "$work"
# The -B directory: each DPC++ tool's name is a link to sycbuild.
for t in sycl-post-link file-table-tform llvm-foreach clang-offload-wrapper; do
  ln -sf "$sycbuild" "bin/$t"
done
export PATH="$PWD/bin:$PATH"
run() { printf '+ %s\n' "$*" >&2; "$@"; }

# The device compile's output: bitcode of the application's translation units
# (here the quickstart's device code, which two translation units made).
if [ -n "${DEVICE_BC:-}" ]; then
  run cp "$DEVICE_BC" app.bc
else
  run "$LLVM_AS" "$here/../quickstart/device.ll" -o app.bc
fi
run "$LLVM_LINK" app.bc -o linked.bc

spirv_opts=(-spirv-max-version=1.4 -spirv-debug-info-version=ocl-100 -spirv-allow-extra-diexpressions
  -spirv-allow-unknown-intrinsics=llvm.genx. -spirv-ext=-all,+SPV_EXT_shader_atomic_float_add,+SPV_KHR_no_integer_wrap_decoration,+SPV_KHR_float_controls,+SPV_INTEL_subgroups,+SPV_INTEL_function_pointers,+SPV_KHR_uniform_group_instructions)

# spir64: SPIR-V for JIT compilation, native specialization constants.
run sycl-post-link -O2 -device-globals -properties -spec-const=native -split=auto \
  -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols \
  -emit-imported-symbols -split-esimd -lower-esimd -o spir64.table linked.bc
run file-table-tform -extract=Code -drop_titles -o spir64.code.txt spir64.table
run llvm-foreach --in-file-list=spir64.code.txt --in-replace=spir64.code.txt --out-ext=spv \
  --out-file-list=spir64.spv.txt --out-replace=spir64.spv.txt -- \
  "$LLVM_SPIRV" -o spir64.spv.txt "${spirv_opts[@]}" spir64.code.txt
run file-table-tform -replace=Code,Code -o spir64.wrap.table spir64.table spir64.spv.txt

# spir64_gen: ahead-of-time code for an Intel GPU, emulated specialization constants.
run sycl-post-link -O2 -device-globals -properties -spec-const=emulation -split=auto \
  -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols \
  -emit-imported-symbols -split-esimd -lower-esimd -o gen.table linked.bc
run file-table-tform -extract=Code -drop_titles -o gen.code.txt gen.table
run llvm-foreach --in-file-list=gen.code.txt --in-replace=gen.code.txt --out-ext=spv \
  --out-file-list=gen.spv.txt --out-replace=gen.spv.txt -- \
  "$LLVM_SPIRV" -o gen.spv.txt "${spirv_opts[@]}" gen.code.txt
run llvm-foreach --out-ext=out --in-file-list=gen.spv.txt --in-replace=gen.spv.txt \
  --out-file-list=gen.bin.txt --out-replace=gen.bin.txt -- \
  "$OCLOC" -output gen.bin.txt -file gen.spv.txt -output_no_suffix -spirv_input -device pvc -q
run file-table-tform -replace=Code,Code -o gen.wrap.table gen.table gen.bin.txt

# One wrapper module for both targets, compiled by llc (position-independent,
# as the driver asks when the host code is, which is the default here) and
# linked with the host code.
run clang-offload-wrapper -o=wrapper.bc -host=x86_64-unknown-linux-gnu \
  -target=spir64 -kind=sycl -batch spir64.wrap.table \
  -target=spir64_gen -kind=sycl -batch gen.wrap.table
run "$LLC" -filetype=obj -relocation-model=pic -o wrapper.o wrapper.bc
run "$CC" -o app "$here/../quickstart/main.c" wrapper.o
run ./app
