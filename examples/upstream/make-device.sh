#!/usr/bin/env bash
# Regenerates device.ll from the two translation units with clang-22's SYCL
# device front end (-fsycl-is-device: kernels come from the launcher marked
# [[clang::sycl_kernel_entry_point]]), then links the two bitcode files with
# llvm-link-22: the device module a SYCL compiler hands to the link stage.
# tu/<name>.ll are the same translation units as text, unlinked: the inputs
# of targets.yaml and per_source.yaml, which sycbuild links itself.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p tu
for tu in vector_ops image_ops; do
  clang-22 -cc1 -triple spir64-unknown-unknown -fsycl-is-device -std=c++17 -O2 \
    -emit-llvm-bc "src/$tu.cpp" -o "$tmp/$tu.bc"
  clang-22 -cc1 -triple spir64-unknown-unknown -fsycl-is-device -std=c++17 -O2 \
    -emit-llvm "src/$tu.cpp" -o "tu/$tu.ll"
done
llvm-link-22 -S "$tmp/vector_ops.bc" "$tmp/image_ops.bc" -o device.ll
