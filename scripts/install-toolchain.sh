#!/usr/bin/env bash
# Installs the external tools sycbuild's tests and examples use, from Debian 12's
# packages. Idempotent: installs only what is missing, and says what it installs.
# sycbuild itself never runs llvm-as (it writes bitcode itself): the llvm-as-N
# these packages bring are for the tests, which compare sycbuild's bitcode with
# theirs and make bitcode inputs with them.
set -euo pipefail

packages=(
  clang-19 llvm-19 llvm-19-tools        # FileCheck-19, llvm-as-19, opt-19, llc-19 (NVPTX), llvm-link-19
  clang-15 llvm-15                      # LLVM 15 syntax (typed pointers), llvm-dis-15, opt-15; llvm-as-15 for tests
  clang-22 llvm-22 clang-tools-22       # LLVM 22: bitcode of current DPC++, the SPIR-V backend, clang-sycl-linker-22
  lld-22                                # ld.lld-22: AMD GPU code objects (amdgcn targets)
  llvm-14                               # llvm-as-14: LLVM 14 bitcode for the bitcode reader's tests
  llvm-spirv-15 spirv-tools             # SPIR-V translation and validation
  intel-opencl-icd                      # ocloc: ahead-of-time compiles for Intel GPUs (no GPU needed)
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers   # running kernels on the CPU in tests
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user   # the wrapper's aarch64 objects, checked under emulation
  zstd                                  # cross-checks of compressed images
  strace                                # the test that counts the processes a build starts (no llvm-as)
  cmake ninja-build bazel-bootstrap make   # the build-system integration examples
  chromium                              # headless: the build report's browser test
  slurmctld slurmd slurm-client munge   # a one-machine Slurm cluster for the slurm executor's tests
)

# The SQLite amalgamation (one 9 MB C file), a large real program for the
# bitcode reader's tests, from the better-sqlite3 npm package, into the
# git-ignored .cache/ of the repository.
fetch_sqlite() {
  local root dir ver=12.11.1
  root=$(cd "$(dirname "$0")/.." && pwd)
  dir=$root/.cache/sqlite3
  [ -f "$dir/sqlite3.c" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-toolchain: npm is missing; SQLite is fetched on the next run" >&2
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "better-sqlite3@$ver" >/dev/null &&
    tar xzf "better-sqlite3-$ver.tgz" package/deps/sqlite3/sqlite3.c) || { rm -rf "$tmp"; return 1; }
  mkdir -p "$dir"
  mv "$tmp/package/deps/sqlite3/sqlite3.c" "$dir/sqlite3.c"
  rm -rf "$tmp"
  echo "install-toolchain: fetched SQLite (better-sqlite3 $ver) into .cache/sqlite3"
}

# bazel-remote, a Remote Execution API cache server for the remote cache's
# tests, built from the Go module proxy into the git-ignored .cache/bin.
# (`go install …@v2.6.1` fails: the proxy refuses the module's version list,
# and the checksum database does not know one genproto pseudo-version.)
build_bazel_remote() {
  local root bin ver=v2.6.1
  root=$(cd "$(dirname "$0")/.." && pwd)
  bin=$root/.cache/bin/bazel-remote
  [ -x "$bin" ] && return 0
  if ! command -v go >/dev/null 2>&1; then
    echo "install-toolchain: go is missing; bazel-remote is built on the next run" >&2
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && go mod init tmp/bazelremote >/dev/null 2>&1 &&
    GONOSUMDB=google.golang.org/genproto GOFLAGS=-mod=mod go get "github.com/buchgr/bazel-remote/v2@$ver" >/dev/null 2>&1 &&
    mkdir -p "$(dirname "$bin")" &&
    CGO_ENABLED=0 go build -o "$bin.tmp" github.com/buchgr/bazel-remote/v2) || { rm -rf "$tmp" "$bin.tmp"; echo "install-toolchain: building bazel-remote $ver failed" >&2; return 1; }
  mv "$bin.tmp" "$bin"
  rm -rf "$tmp"
  echo "install-toolchain: built bazel-remote $ver into .cache/bin"
}

# staticcheck, the linter of make lint, built from the Go module proxy into
# the git-ignored .cache/bin.
build_staticcheck() {
  local root bin ver=v0.8.2
  root=$(cd "$(dirname "$0")/.." && pwd)
  bin=$root/.cache/bin/staticcheck
  [ -x "$bin" ] && return 0
  if ! command -v go >/dev/null 2>&1; then
    echo "install-toolchain: go is missing; staticcheck is built on the next run" >&2
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && go mod init tmp/staticcheck >/dev/null 2>&1 &&
    GOFLAGS=-mod=mod go get "honnef.co/go/tools/cmd/staticcheck@$ver" >/dev/null 2>&1 &&
    mkdir -p "$(dirname "$bin")" &&
    CGO_ENABLED=0 go build -o "$bin.tmp" honnef.co/go/tools/cmd/staticcheck) || { rm -rf "$tmp" "$bin.tmp"; echo "install-toolchain: building staticcheck $ver failed" >&2; return 1; }
  mv "$bin.tmp" "$bin"
  rm -rf "$tmp"
  echo "install-toolchain: built staticcheck $ver into .cache/bin"
}

missing=()
for p in "${packages[@]}"; do
  [[ $p == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-toolchain: all ${#packages[@]} packages already installed"
  fetch_sqlite
  build_bazel_remote
  build_staticcheck
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-toolchain: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-toolchain: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
fetch_sqlite
build_bazel_remote
build_staticcheck
