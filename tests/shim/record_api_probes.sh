#!/usr/bin/env bash
# Builds the runtime-API probes in tests/shim/gpu_probes with nvcc and runs them on this
# machine's GPU, one process per form:
#   copy_ranges.cu   copies, memsets and frees naming device memory that is not there (null, freed,
#                    past an allocation's end, before its start)  -> docs/gpu-runs/copy-ranges.txt
#   host_memory_in_kernel.cu  a kernel given host memory no CUDA call made
#                                                    -> docs/gpu-runs/host-memory-in-kernel.txt
#
#   tests/shim/record_api_probes.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/scripts/gpu_recording.sh"
start_probe_recording "${BASH_SOURCE[0]}" 9 "$@"
# Each probe's forms (the probe alone lists them), one process each.
record() {  # probe output-name
  {
    echo "# tests/shim/record_api_probes.sh at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
    device_lines
    echo "## $nvcc -arch=sm_90 tests/shim/gpu_probes/$1.cu"
    "$nvcc" -arch=sm_90 -o "$work/$1" "$root/tests/shim/gpu_probes/$1.cu"
    for form in $("$work/$1"); do "$work/$1" "$form" || echo "$form: exit $?"; done
  } 2>&1 | tee "$root/docs/gpu-runs/$2"
}
record copy_ranges copy-ranges.txt
record host_memory_in_kernel host-memory-in-kernel.txt
