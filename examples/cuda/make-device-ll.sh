#!/usr/bin/env bash
# Regenerates device.ll from the two CUDA translation units with the real
# clang-19 CUDA front end (no CUDA headers needed), then links them with
# llvm-link-19 — the device module a SYCL front end would hand to the link stage.
# device22.ll is the same with clang-22 and llvm-link-22: LLVM 22 IR
# (captures(none), initializes(…)), which llc-19 cannot read. clang-22 checks
# the PTX version against the GPU; without a CUDA installation it assumes PTX
# 4.2, so the PTX 8.0 that sm_90 needs is named.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tu in tu1 tu2; do
  clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O2 \
    -S -emit-llvm "$tu.cu" -o "$tmp/$tu.ll"
  clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
    -Xclang -target-feature -Xclang +ptx80 -O2 -S -emit-llvm "$tu.cu" -o "$tmp/$tu.22.ll"
done
llvm-link-19 -S "$tmp/tu1.ll" "$tmp/tu2.ll" -o device.ll
llvm-link-22 -S "$tmp/tu1.22.ll" "$tmp/tu2.22.ll" -o device22.ll
