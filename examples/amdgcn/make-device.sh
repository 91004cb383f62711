#!/usr/bin/env bash
# Regenerates device.ll from src/amd_ops.cpp with clang-22's SYCL device
# front end for AMD GPUs (amdgcn-amd-amdhsa, gfx90a): the device module a
# SYCL compiler hands to the link stage.
set -euo pipefail
cd "$(dirname "$0")"
clang-22 -cc1 -triple amdgcn-amd-amdhsa -target-cpu gfx90a -fsycl-is-device -std=c++17 -O2 \
  -emit-llvm src/amd_ops.cpp -o device.ll
