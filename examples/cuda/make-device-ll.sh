#!/usr/bin/env bash
# Regenerates device.ll from the two CUDA translation units with the real
# clang-19 CUDA front end (no CUDA headers needed), then links them with
# llvm-link-19 — the device module a SYCL front end would hand to the link stage.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tu in tu1 tu2; do
  clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib -O2 \
    -S -emit-llvm "$tu.cu" -o "$tmp/$tu.ll"
done
llvm-link-19 -S "$tmp/tu1.ll" "$tmp/tu2.ll" -o device.ll
