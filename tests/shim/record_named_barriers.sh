#!/usr/bin/env bash
# Runs the named-barrier kernels (tests/shim/kernels/named_barriers.cu) in the simulator and on
# this machine's NVIDIA GPU, comparing buffers and steps (warpsim run --gpu), and prints what the
# GPU's performance monitor counters %pm0-%pm3 read in a plain run (tests/shim/gpu_probes/
# perf_counters.cu, built with nvcc). Writes docs/gpu-runs/named-barriers.txt.
#
#   tests/shim/record_named_barriers.sh [--build DIR]
#
# warpsim is built in DIR (default build/record) unless $WARPSIM names a built one.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/record"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "record_named_barriers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_named_barriers.sh
warpsim="$(warpsim_for_gpu "$root" "$build" record_named_barriers.sh)"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
out="$root/docs/gpu-runs/named-barriers.txt"
device="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
cd "$root"
{
  echo "# tests/shim/record_named_barriers.sh on $device, $(date -u +%Y-%m-%d)"
  status=0
  for kernel in producer_consumer diverged_arrival whole_block; do
    echo
    echo "## $kernel: warpsim run tests/shim/kernels/named_barriers.cu --kernel $kernel --grid 1 --block 96 --arg 'i32[96]:zeros' --gpu"
    "$warpsim" run tests/shim/kernels/named_barriers.cu --kernel "$kernel" --grid 1 --block 96 \
      --arg 'i32[96]:zeros' --gpu || status=1
    # Lane by lane: the GPU's buffer, and whether the simulator's is identical to it.
    "$warpsim" run tests/shim/kernels/named_barriers.cu --kernel "$kernel" --grid 1 --block 96 \
      --arg 'i32[96]:zeros' --gpu --json | python3 -c '
import json, sys
run = json.load(sys.stdin)
gpu = run.get("gpu") or {}
same = [b.get("identical") for b in gpu.get("buffers", [])]
print("simulator buffer identical to the GPU buffer:", same)
for output in gpu.get("outputs", []):
    values = output["values"]
    for warp in range(0, len(values), 32):
        print("  GPU threads %2d-%2d:" % (warp, warp + 31), values[warp:warp + 32])
' || status=1
  done
  echo
  echo "## performance monitor counters: $nvcc -arch=sm_90 tests/shim/gpu_probes/perf_counters.cu"
  probe="$(mktemp -d)/perf_counters"
  "$nvcc" -arch=sm_90 -o "$probe" tests/shim/gpu_probes/perf_counters.cu && "$probe" || status=1
  exit "$status"
} 2>&1 | tee "$out"
