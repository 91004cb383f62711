#!/usr/bin/env bash
# Run on the Debian build machine (llvm-22 installed) before copying the
# checkout to a GPU machine that has no LLVM 22 tools: puts Debian's llc-22
# and the shared libraries it loads (all but the C and C++ runtime, which
# the GPU machine's newer system has) into llvm22/, with llvm22/llc-22, a
# wrapper that runs it with those libraries, and llvm22.tar.xz, the same
# packed (about 200 MB unpacked, libLLVM alone 150 MB). gpu-test.sh uses
# llvm22/llc-22 when there is no llc-22 on PATH, unpacking llvm22.tar.xz
# first where only that was copied.
set -euo pipefail
cd "$(dirname "$0")"
llc=$(readlink -f "$(command -v llc-22)")
rm -rf llvm22 && mkdir -p llvm22/bin llvm22/lib
cp "$llc" llvm22/bin/llc
ldd "$llc" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|ld-linux*) ;;
    *) cp -L "$lib" llvm22/lib/ ;;
  esac
done
cat > llvm22/llc-22 <<'SH'
#!/bin/sh
d=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$d/bin/llc" "$@"
SH
chmod +x llvm22/llc-22
llvm22/llc-22 --version | grep -m1 'LLVM version'
tar -cf - llvm22 | xz -T0 -6 > llvm22.tar.xz
du -sh llvm22 llvm22.tar.xz
