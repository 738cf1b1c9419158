#!/usr/bin/env bash
# Per-launch times of two programs under `warpsim exec` on 1 core and on all cores, and the cost
# of mapping and guarding lane stacks on 1 to all threads (bench/results.md, "Blocks on 16 cores").
#
#   bench/scaling/run.sh [WARPSIM]        (default build/release/cli/warpsim)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
warpsim="${1:-$here/../../build/release/cli/warpsim}"
[[ -x "$warpsim" ]] || { echo "run.sh: no warpsim at $warpsim (pass its path)" >&2; exit 2; }
cores="$(nproc)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $cores cores"
"${CXX:-c++}" -O2 -pthread "$here/stack_guards.cpp" -o "$work/stack_guards"
for mode in 0 1 2; do
  for threads in 1 2 4 8 16 "$cores"; do
    (( threads <= cores )) && "$work/stack_guards" "$threads" "$mode"
  done
done
for program in repeat_reduce repeat_blocksum; do
  "$warpsim" exec "$here/$program.cu" > /dev/null 2>&1 || true  # builds it into the cache
  for jobs in 1 "$cores"; do
    echo "== $program, WARPSIM_JOBS=$jobs"
    WARPSIM_JOBS="$jobs" "$warpsim" exec "$here/$program.cu" 2>&1 | grep ' launch '
  done
done
