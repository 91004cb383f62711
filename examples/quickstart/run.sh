#!/usr/bin/env bash
# The quickstart end to end: sycbuild builds the device-image object that
# targets.yaml describes, cc links main.c with it, and the program prints the
# device images it was handed at start-up.
#
#   examples/quickstart/run.sh <sycbuild-binary>
#
# (make demo runs it with the freshly built bin/sycbuild.)
set -euo pipefail
sycbuild=${1:?usage: $0 <sycbuild-binary>}
case $sycbuild in
  */*) sycbuild=$(cd "$(dirname "$sycbuild")" && pwd)/$(basename "$sycbuild") ;;
esac
cd "$(dirname "$0")"
"$sycbuild" -config targets.yaml
"${CC:-cc}" -o out/quickstart main.c out/device_images.o
./out/quickstart
