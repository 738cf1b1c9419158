#!/usr/bin/env bash
# Builds the mask probes in tests/shim/gpu_probes with nvcc and runs them on this machine's GPU:
#   per_lane_masks.cu      each lane of a converged warp passes __ballot_sync a mask of its own
#                          (HeCBench's bscan)            -> docs/gpu-runs/per-lane-masks.txt
#   caller_not_in_mask.cu  one mask that leaves callers out, constant or run-time, per collective
#                          (with each form's SASS)       -> docs/gpu-runs/caller-not-in-mask.txt
#
#   tests/shim/record_mask_probes.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/scripts/gpu_recording.sh"
start_probe_recording "${BASH_SOURCE[0]}" 8 "$@"
cuobjdump="$(dirname "$nvcc")/cuobjdump"
header() {
  echo "# tests/shim/record_mask_probes.sh at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
  device_lines
  echo "## $nvcc -arch=sm_90 tests/shim/gpu_probes/$1.cu"
  "$nvcc" -arch=sm_90 -o "$work/$1" "$root/tests/shim/gpu_probes/$1.cu"
}
# The SASS lines that carry a collective or the warp's convergence, per kernel.
sass() {
  echo "## SASS of each kernel's collective and convergence instructions (cuobjdump -sass)"
  "$cuobjdump" -sass "$work/$1" |
    grep -E 'Function :|WARPSYNC|VOTE|SHFL|MATCH|REDUX|BPT|BMOV|BSSY|BSYNC' |
    sed -E 's@/\*[0-9a-f]{4}\*/@@; s@ +/\* 0x[0-9a-f]+ \*/@@; s/ +;/;/; s/^[[:space:]]+/  /'
}
{
  header per_lane_masks
  # One process per form: a trap ends the process's CUDA context.
  for form in 0 1 2 3 4 5 6; do "$work/per_lane_masks" "$form"; done
  sass per_lane_masks
} 2>&1 | tee "$root/docs/gpu-runs/per-lane-masks.txt"
{
  header caller_not_in_mask
  echo "## every lane of one converged warp (32 threads) calls; inputs (i*7)%5-1; m is the kernel's"
  echo "## run-time mask argument (forms *_arg), the *_const* forms have the mask in the source"
  for form in $("$work/caller_not_in_mask"); do
    for mask in 0000ffff 00000000 ffffffff; do
      case "$form" in *_arg*) ;; *) [[ "$mask" == 0000ffff ]] || continue ;; esac
      "$work/caller_not_in_mask" "$form" "$mask"
    done
  done
  sass caller_not_in_mask
} 2>&1 | tee "$root/docs/gpu-runs/caller-not-in-mask.txt"
