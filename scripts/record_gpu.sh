#!/usr/bin/env bash
# Everything warpsim records on an NVIDIA GPU, in one go, for CI and for machines without a GPU:
#   lessons/record_gpu.sh LESSON...   the lessons' recorded runs (all with --lessons all)
#   tests/programs/record_gpu.sh      what each whole-program corpus file prints on the GPU
#   tests/programs/record_gpu_buffers.sh  exec --gpu on each: every launch's buffers
#   tests/runner/record_gpu_ptx.sh    inline PTX and cub beside the simulator (docs/gpu-runs)
#   tests/shim/record_named_barriers.sh   named barriers, %pm0-%pm3 (docs/gpu-runs)
#   tests/gpu/check_struct_args_gpu.sh    struct and 8/16-bit arguments, -I/-D (docs/gpu-runs)
#   tests/races/record_gpu.sh         the planted races under compute-sanitizer, beside warpsim
#   docs/gpu-runs/grade-warp-sum.txt  `warpsim grade` with its GPU leg: a solution, a wrong variant
#
#   scripts/record_gpu.sh [--build DIR] [--lessons all|"ID ..."]
#
# warpsim is built in DIR (default build/record) unless $WARPSIM names a built one. Each part runs
# even when one before it failed; the exit status is 1 if any did, 3 without a CUDA device.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/record"
lessons=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --lessons) lessons="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "record_gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu.sh
WARPSIM="$(warpsim_for_gpu "$root" "$build" record_gpu.sh)" || exit 1
export WARPSIM
export WARPSIM_LESSONS_DIR="$root/lessons"

status=0
part() {  # name, command...
  echo "== $1" >&2
  shift
  "$@" || { echo "record_gpu.sh: that part failed" >&2; status=1; }
}

if [[ "$lessons" == all ]]; then
  part "lessons" bash "$root/lessons/record_gpu.sh"
elif [[ -n "$lessons" ]]; then
  # shellcheck disable=SC2086  # a list of lesson ids
  part "lessons $lessons" bash "$root/lessons/record_gpu.sh" $lessons
fi
[[ -x "$root/tests/programs/record_gpu.sh" || -f "$root/tests/programs/record_gpu.sh" ]] &&
  part "whole programs" bash "$root/tests/programs/record_gpu.sh"
part "whole programs' buffers (exec --gpu)" bash "$root/tests/programs/record_gpu_buffers.sh"
part "inline PTX and cub (run --gpu)" bash "$root/tests/runner/record_gpu_ptx.sh"
part "named barriers and %pm0-%pm3" bash "$root/tests/shim/record_named_barriers.sh"
part "struct arguments, small element types, -I/-D (run --gpu; builds build/release)" \
  bash "$root/tests/gpu/check_struct_args_gpu.sh"
[[ -f "$root/tests/races/record_gpu.sh" ]] && part "races" bash "$root/tests/races/record_gpu.sh"

grade_on_gpu() {
  local exercise="$root/lessons/04-butterfly-reduction/exercises/warp-sum"
  local out="$root/docs/gpu-runs/grade-warp-sum.txt"
  local device
  device="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1)"
  mkdir -p "$(dirname "$out")"
  {
    echo "# warpsim grade on $device, $(date -u +%Y-%m-%d)"
    echo "# scripts/record_gpu.sh: every case that passes in the simulator runs on the GPU too"
    for file in solution.cu wrong/last-lane-writes.cu; do
      echo
      (cd "$root" && "$WARPSIM" grade warp-sum "${exercise#"$root/"}/$file" --seed 1 > /tmp/grade.$$ 2>&1)
      echo "\$ warpsim grade warp-sum lessons/04-butterfly-reduction/exercises/warp-sum/$file --seed 1    (exit $?)"
      head -n 20 /tmp/grade.$$
    done
    rm -f /tmp/grade.$$
  } > "$out"
  grep -q "GPU agrees" "$out"
}
part "grading on the GPU" grade_on_gpu
exit "$status"
