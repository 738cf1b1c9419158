#!/usr/bin/env bash
# Records every lesson on this machine's NVIDIA GPU, for machines without one to compare with:
#   lessons/<id>/gpu/<preset>.json.gz   the GPU's outputs and device trace of each preset, with
#                                       device, driver, CUDA version and date (warpsim lesson ID
#                                       --gpu --record); presets marked "gpu": {"skip": ...} are
#                                       not sent (they hang a GPU)
#   lessons/24-.../bandwidth/results.md the memory-bound reduction's bandwidth table
# then checks every lesson against what it recorded (warpsim lessons --verify).
#
#   lessons/record_gpu.sh [--build DIR] [LESSON...]
#
# warpsim is built in DIR (default build/record) unless $WARPSIM names a built one.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/record"
lessons=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "record_gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) lessons+=("$1"); shift ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu.sh
warpsim="$(warpsim_for_gpu "$root" "$build" record_gpu.sh)"
export WARPSIM_LESSONS_DIR="$root/lessons"

if [[ ${#lessons[@]} -eq 0 ]]; then
  for dir in "$root"/lessons/[0-9][0-9]-*/; do lessons+=("$(basename "$dir")"); done
fi
status=0
for lesson in "${lessons[@]}"; do
  "$warpsim" lesson "$lesson" --gpu --record || status=1
done
bash "$root/lessons/24-memory-bound-reduction/bandwidth/run.sh" || status=1
"$warpsim" lessons --verify || status=1
exit "$status"
