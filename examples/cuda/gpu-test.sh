#!/usr/bin/env bash
# The whole chain on a machine with an NVIDIA GPU and CUDA (ptxas, fatbinary,
# libcuda): sycbuild builds the device-image object for nvptx64 (split per
# kernel, then per source; emulated spec constants; llc → ptxas → fatbinary
# per module), runtime/runtime.c is linked with it, and the program loads
# every image, launches every kernel with default and overridden spec
# constants and checks every value. Exits non-zero on any mismatch.
#
# It does so twice: for device.ll (clang-19's IR, compiled by llc-19) and for
# device22.ll (clang-22's IR, which only an LLVM 22 llc reads; sycbuild takes
# llc-22 for it as it does for spir64). The LLVM 22 llc is, in this order:
# llc-22 on PATH; llvm22/llc-22 beside this script (Debian's llc-22 with its
# libraries, put there on the build machine by ./carry-llc-22.sh, or unpacked
# from the llvm22.tar.xz it writes); or
# llc-llvmlite.py when the machine's llvmlite is built on LLVM 22 or later.
#
#   examples/cuda/gpu-test.sh [path/to/sycbuild]      (default: bin/sycbuild)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sycbuild=$(realpath "${1:-$here/../../bin/sycbuild}")
cuda=${CUDA_PATH:-/usr/local/cuda}
export PATH="$cuda/bin:$PATH"
cd "$here"

# llc for LLVM 19 IR: Debian's llc-19 where installed, else an llc over the
# machine's llvmlite.
llc19=llc-19
command -v llc-19 >/dev/null || llc19="$here/llc-llvmlite.py"
# llc for LLVM 22 IR (see above).
[ ! -x "$here/llvm22/llc-22" ] && [ -f "$here/llvm22.tar.xz" ] && tar -C "$here" -xJf "$here/llvm22.tar.xz"
llvmlite_major() { python3 -c 'import llvmlite.binding as l; print(l.llvm_version_info[0])' 2>/dev/null || echo 0; }
if command -v llc-22 >/dev/null; then
  llc22=llc-22
elif [ -x "$here/llvm22/llc-22" ]; then
  llc22="$here/llvm22/llc-22"
elif [ "$(llvmlite_major)" -ge 22 ]; then
  llc22="$here/llc-llvmlite.py"
else
  echo "gpu-test: FAIL: no LLVM 22 llc (llc-22, llvm22/llc-22 from carry-llc-22.sh, or llvmlite on LLVM 22)"
  exit 1
fi
echo "gpu-test: sycbuild $("$sycbuild" version | cut -d' ' -f2)"
echo "gpu-test: llc for LLVM 19 IR: $llc19: $("$llc19" --version | grep -i -m1 version)"
echo "gpu-test: llc for LLVM 22 IR: $llc22: $("$llc22" --version | grep -i -m1 version)"
echo "gpu-test: $(ptxas --version | tail -1)"

for gen in 19 22; do
  input=device.ll llc=$llc19
  [ $gen = 22 ] && input=device22.ll llc=$llc22
  for split in per_kernel per_source; do
    d=out/llvm$gen/$split
    rm -rf "$d" && mkdir -p "$d"
    cat > "$d/targets.yaml" <<YAML
inputs: [../../../$input]
output: device_images.o
build_dir: build
split: $split
tools: {llc: $llc}
targets:
  - kind: nvptx64
    arch: sm_90
YAML
    echo "== $input (LLVM $gen), split: $split"
    "$sycbuild" -config "$d/targets.yaml" -v > "$d/build.log" 2>&1 || { cat "$d/build.log"; exit 1; }
    grep -m1 -- '-march=nvptx64' "$d/build.log"
    cc -O1 -Wall -I"$cuda/include" -o "$d/gpu-test" runtime/runtime.c runtime/speccheck.c "$d/device_images.o" \
      -L"$cuda/lib64/stubs" -lcuda
    "$d/gpu-test" | tee "$d/result.txt"
  done
done

# Every build must give the same kernel results.
results() { grep -E '^  (ok|FAIL) ' "$1" | sort; }
for r in out/llvm19/per_source out/llvm22/per_kernel out/llvm22/per_source; do
  if ! diff <(results out/llvm19/per_kernel/result.txt) <(results $r/result.txt); then
    echo "gpu-test: FAIL: out/llvm19/per_kernel and $r give different results"
    exit 1
  fi
done
echo "gpu-test: passed: LLVM 19 and LLVM 22 input, per_kernel and per_source give the same results"
