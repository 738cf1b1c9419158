#!/usr/bin/env bash
# Lesson 24, part (b): build bandwidth.cu, run it on this machine's GPU, and write the table to
# results.md beside this script (device, driver, CUDA version and date included).
# Usage: bandwidth/run.sh   (needs nvcc and an NVIDIA GPU; NVCC and ARCH may be overridden)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvcc="${NVCC:-nvcc}"
arch="${ARCH:-sm_90}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

"$nvcc" -O3 -arch="$arch" -o "$build/bandwidth" "$here/bandwidth.cu"

table="$("$build/bandwidth")" || status=$?
{
  echo "# Summing 1 GiB of floats: measured bandwidth"
  echo
  echo "Recorded $(date -u '+%Y-%m-%d %H:%M UTC') by \`bandwidth/run.sh\` (nvcc -O3 -arch=$arch)."
  echo "Reductions read 1 GiB once; the copy reads and writes it, so its bytes count twice."
  echo
  echo "$table"
} > "$here/results.md"
cat "$here/results.md"
exit "${status:-0}"
