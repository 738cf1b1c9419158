#!/usr/bin/env bash
# Builds tests/shim/gpu_probes/per_lane_masks.cu with nvcc and runs it on this machine's GPU:
# what each lane's __ballot_sync returns when every lane of a converged warp passes a mask of its
# own (HeCBench's bscan). Writes docs/gpu-runs/per-lane-masks.txt.
#
#   tests/shim/record_per_lane_masks.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
case "${1:-}" in
  -h|--help) sed -n '2,6p' "${BASH_SOURCE[0]}"; exit 0 ;;
  "") ;;
  *) echo "record_per_lane_masks.sh: unknown argument $1" >&2; exit 2 ;;
esac
. "$root/scripts/gpu_recording.sh"
require_gpu record_per_lane_masks.sh
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
probe="$(mktemp -d)/per_lane_masks"
trap 'rm -rf "$(dirname "$probe")"' EXIT
{
  echo "# tests/shim/record_per_lane_masks.sh at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
  device_lines
  echo "## $nvcc -arch=sm_90 tests/shim/gpu_probes/per_lane_masks.cu"
  "$nvcc" -arch=sm_90 -o "$probe" "$root/tests/shim/gpu_probes/per_lane_masks.cu"
  # One process per form: a trap ends the process's CUDA context.
  for form in 0 1 2 3 4 5 6; do "$probe" "$form"; done
} 2>&1 | tee "$root/docs/gpu-runs/per-lane-masks.txt"
