#!/usr/bin/env bash
# The whole chain on a machine with an NVIDIA GPU and CUDA (ptxas, fatbinary,
# libcuda): sycbuild builds the device-image object from device.ll for nvptx64
# (split per kernel, then per source; emulated spec constants; llc → ptxas →
# fatbinary per module), runtime/runtime.c is linked with it, and the program
# loads every image, launches every kernel with default and overridden spec
# constants and checks every value. Exits non-zero on any mismatch.
#
#   examples/cuda/gpu-test.sh [path/to/sycbuild]      (default: bin/sycbuild)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sycbuild=$(realpath "${1:-$here/../../bin/sycbuild}")
cuda=${CUDA_PATH:-/usr/local/cuda}
export PATH="$cuda/bin:$PATH"
cd "$here"

# llc: Debian's llc-19 where installed, else an llc over the machine's llvmlite.
llc=llc-19
command -v llc-19 >/dev/null || llc="$here/llc-llvmlite.py"
echo "gpu-test: sycbuild $("$sycbuild" version | cut -d' ' -f2), llc: $("$llc" --version | grep -i -m1 version)"
echo "gpu-test: $(ptxas --version | tail -1)"

for split in per_kernel per_source; do
  d=out/$split
  rm -rf "$d" && mkdir -p "$d"
  cat > "$d/targets.yaml" <<YAML
inputs: [../../device.ll]
output: device_images.o
build_dir: build
split: $split
tools: {llc: $llc}
targets:
  - kind: nvptx64
    arch: sm_90
YAML
  echo "== split: $split"
  "$sycbuild" -config "$d/targets.yaml"
  cc -O1 -Wall -I"$cuda/include" -o "$d/gpu-test" runtime/runtime.c runtime/speccheck.c "$d/device_images.o" \
    -L"$cuda/lib64/stubs" -lcuda
  "$d/gpu-test" | tee "$d/result.txt"
done

# Both splits must give the same kernel results.
results() { grep -E '^  (ok|FAIL) ' "$1" | sort; }
if ! diff <(results out/per_kernel/result.txt) <(results out/per_source/result.txt); then
  echo "gpu-test: FAIL: per_kernel and per_source results differ"
  exit 1
fi
echo "gpu-test: passed: per_kernel and per_source give the same results"
