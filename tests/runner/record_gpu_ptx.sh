#!/usr/bin/env bash
# Inline PTX and the toolkit's cub on a real GPU beside the simulator (warpsim run --gpu):
# the single-instruction snippets (ptx_warp), the 32 block forms (ptx_blocks), PTX written in
# macros (inline_ptx_macros.cu), cub's warp and block algorithms (cub_algorithms.cu) and its block
# loads and stores with the cache-hinted ThreadLoad/ThreadStore (cub_load_store.cu). Writes what warpsim printed to
#   docs/gpu-runs/inline-ptx.txt and docs/gpu-runs/cub.txt
#
#   tests/runner/record_gpu_ptx.sh
#
# Needs a CUDA device and a built warpsim ($WARPSIM, default build/release/cli/warpsim). Exit
# status 1 when a buffer differs, 3 without a CUDA device.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
warpsim="${WARPSIM:-$root/build/release/cli/warpsim}"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "record_gpu_ptx.sh: no CUDA device here (nvidia-smi finds none)" >&2
  exit 3
fi
[[ -x "$warpsim" ]] || { echo "record_gpu_ptx.sh: no warpsim at $warpsim (set WARPSIM)" >&2; exit 2; }
device="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1)"
cd "$root"
status=0
run() {  # out file, warpsim run arguments...
  local out="$1"
  shift
  echo
  echo "\$ warpsim run $*"
  "$warpsim" run "$@" --gpu 2>&1
  local code=$?
  echo "(exit $code)"
  [[ $code -eq 0 ]] || status=1
}
mkdir -p docs/gpu-runs
kernels=tests/runner/kernels
{
  echo "# tests/runner/record_gpu_ptx.sh on $device, $(date -u +%Y-%m-%d): inline PTX beside the intrinsics"
  echo "# The GPU's trace records intrinsic calls only: a PTX shuffle has no GPU step to compare, so"
  echo "# the buffers (each slot's PTX result beside its intrinsic's) are what is checked."
  run x "$kernels/inline_ptx.cu" --kernel ptx_warp --grid 1 --block 32 --arg 'f32[32]:iota' \
    --arg 'f32[32]:zeros' --arg 'u32[160]:zeros'
  run x "$kernels/inline_ptx.cu" --kernel ptx_blocks --grid 1 --block 32 \
    --arg 'i32[32]:random:7:-1000:1000' --arg 'u32[2048]:zeros'
  run x "$kernels/inline_ptx_macros.cu" --kernel ptx_macros --grid 1 --block 32 \
    --arg 'u32[32]:random:9:0:1000' --arg 'u32[128]:zeros'
} > docs/gpu-runs/inline-ptx.txt
{
  echo "# tests/runner/record_gpu_ptx.sh on $device, $(date -u +%Y-%m-%d): the toolkit's cub, unmodified"
  run x "$kernels/cub_algorithms.cu" --kernel cub_warp --grid 1 --block 32 \
    --arg 'i32[32]:random:5:-100:100' --arg 'i32[67]:zeros' --arg 'f32[1]:zeros'
  run x "$kernels/cub_algorithms.cu" --kernel cub_block --grid 1 --block 128 \
    --arg 'i32[128]:random:5:-100:100' --arg 'i32[129]:zeros'
  run x "$kernels/cub_load_store.cu" --kernel cub_load_store --grid 1 --block 128 \
    --arg 'i32[512]:random:3:-1000:1000' --arg 'i32[512]:zeros' --arg 'i32[512]:zeros' \
    --arg 'u32[2048]:zeros'
} > docs/gpu-runs/cub.txt
grep -h "buffer\|exit" docs/gpu-runs/inline-ptx.txt docs/gpu-runs/cub.txt >&2
exit "$status"
