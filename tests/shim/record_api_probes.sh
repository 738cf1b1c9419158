#!/usr/bin/env bash
# Builds the runtime-API probes in tests/shim/gpu_probes with nvcc and runs them on this
# machine's GPU, one process per form:
#   copy_ranges.cu   copies, memsets and frees naming device memory that is not there (null, freed,
#                    past an allocation's end, before its start)  -> docs/gpu-runs/copy-ranges.txt
#
#   tests/shim/record_api_probes.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
case "${1:-}" in
  -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}"; exit 0 ;;
  "") ;;
  *) echo "record_api_probes.sh: unknown argument $1" >&2; exit 2 ;;
esac
. "$root/scripts/gpu_recording.sh"
require_gpu record_api_probes.sh
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
  echo "# tests/shim/record_api_probes.sh at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)"
  device_lines
  echo "## $nvcc -arch=sm_90 tests/shim/gpu_probes/copy_ranges.cu"
  "$nvcc" -arch=sm_90 -o "$work/copy_ranges" "$root/tests/shim/gpu_probes/copy_ranges.cu"
  for form in $("$work/copy_ranges"); do "$work/copy_ranges" "$form" || echo "$form: exit $?"; done
} 2>&1 | tee "$root/docs/gpu-runs/copy-ranges.txt"
