#!/usr/bin/env bash
# Builds the runtime-API probes in tests/shim/gpu_probes with nvcc and runs them on this
# machine's GPU, one process per form:
#   copy_ranges.cu   copies, memsets and frees naming device memory that is not there (null, freed,
#                    past an allocation's end, before its start)  -> docs/gpu-runs/copy-ranges.txt
#
#   tests/shim/record_api_probes.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/scripts/gpu_recording.sh"
start_probe_recording "${BASH_SOURCE[0]}" 7 "$@"
{
  echo "# tests/shim/record_api_probes.sh at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
  device_lines
  echo "## $nvcc -arch=sm_90 tests/shim/gpu_probes/copy_ranges.cu"
  "$nvcc" -arch=sm_90 -o "$work/copy_ranges" "$root/tests/shim/gpu_probes/copy_ranges.cu"
  for form in $("$work/copy_ranges"); do "$work/copy_ranges" "$form" || echo "$form: exit $?"; done
} 2>&1 | tee "$root/docs/gpu-runs/copy-ranges.txt"
