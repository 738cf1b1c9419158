#!/usr/bin/env bash
# Records the GPU test vectors (../shared/spec/vectors.md) on this machine's CUDA device.
#
#   gpu/record_vectors.sh [BUILD_DIR] [OUT]
#
#   BUILD_DIR  a build folder to use; configured (Release) and built here if it has no CMakeCache.txt
#              (default: build-record in the repository root)
#   OUT        the vector file to write (default: tests/vectors/data/h100.jsonl.gz)
#   SEED, CASES, DEVICE (environment): generator seed (777), case count (24000), CUDA device (0)
#   WARPSIM (environment): a warpsim executable to use instead of building one
#
# The same seed and case count give the same cases on any machine; the results are the device's.
# Exits non-zero, with the reason on one line, when there is no CUDA device.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-record}"
out="${2:-tests/vectors/data/h100.jsonl.gz}"
seed="${SEED:-777}"
cases="${CASES:-24000}"
device="${DEVICE:-0}"

cd "$root"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader || true
fi

if [[ -n "${WARPSIM:-}" ]]; then
  exe="$WARPSIM"
else
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPSIM_BUILD_TESTS=OFF
fi
cmake --build "$build" --target warpsim
if [[ -z "$(find "$build" -name 'libwarpsim_gpu.a' -print -quit)" ]]; then
  echo "record_vectors.sh: $build was configured without the CUDA toolkit (warpsim::gpu not built)" >&2
  exit 2
fi

exe="$(find "$build" -type f -name warpsim -perm -u+x | head -n 1)"
if [[ -z "$exe" ]]; then
  echo "record_vectors.sh: no warpsim executable under $build" >&2
  exit 2
fi
fi

args=(vectors record --seed "$seed" --cases "$cases" --out "$out")
if [[ "$device" != 0 ]]; then args+=(--device "$device"); fi
echo "+ $exe ${args[*]}"
"$exe" "${args[@]}"
