#!/usr/bin/env bash
# Grading time of a class: 30 submissions of warp-sum (12 cases each), made from the exercise's
# own solution and its right/ and wrong/ variants, each file distinct (a student's comment on top,
# so that each is compiled on its own, as a real class's would be), graded with `warpsim grade`
# into a CSV. Prints the wall time and the verdicts' counts; nothing to record by hand.
#
#   bench/grade_class.sh [build/release] [30] [extra grade flags...]
set -euo pipefail
build=${1:-build/release}
count=${2:-30}
shift $(( $# > 2 ? 2 : $# ))
here=$(cd "$(dirname "$0")/.." && pwd)
warpsim="$here/$build/cli/warpsim"
exercise="$here/lessons/04-butterfly-reduction/exercises/warp-sum"
work=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-grade-class-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/class" "$work/cache"
sources=("$exercise/solution.cu" "$exercise"/right/*.cu "$exercise"/wrong/*.cu)
for ((i = 0; i < count; ++i)); do
  src=${sources[$((i % ${#sources[@]}))]}
  { printf '// student %02d, from %s\n' "$i" "$(basename "$src")"; cat "$src"; } \
    > "$work/class/student$(printf %02d "$i").cu"
done
# The precompiled shim (one per compiler and flags, plain and race-checked) is built once per
# install, not per class: made here, untimed, by runs of the starter (no submission's file).
for check in "" "--check races"; do
  WARPSIM_CACHE_DIR="$work/cache" "$warpsim" run "$exercise/starter.cu" --kernel warp_sum \
    --grid 1 --block 32 --arg 'f32[32]:iota' --arg 'f32[1]:zeros' --arg i32:32 $check \
    > /dev/null 2>&1 || true
done
echo "class: $count submissions from ${#sources[@]} sources; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
set +e
WARPSIM_CACHE_DIR="$work/cache" "$warpsim" grade "$exercise" "$work/class" --no-gpu \
  --csv "$work/grades.csv" "$@" > "$work/out.txt" 2>&1
status=$?
set -e
end=$(date +%s.%N)
tail -n 4 "$work/out.txt"
printf 'exit %d; ok %d, FAIL %d, INCOMPLETE %d, ERROR %d\n' "$status" \
  "$(grep -c '^ok ' "$work/out.txt")" "$(grep -c '^FAIL ' "$work/out.txt")" \
  "$(grep -c '^INCOMPLETE ' "$work/out.txt")" "$(grep -c '^ERROR ' "$work/out.txt")"
printf 'wall %.1f s (every submission compiled; the precompiled shim warm)\n' "$(echo "$end - $start" | bc)"
