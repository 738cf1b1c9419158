#!/usr/bin/env bash
# What a student waits for after an edit: `warpsim run` of lesson 4's kernel in a fresh cache,
# (1) the very first run (the precompiled shim is built too: once per install and compiler),
# (2) each run after an edit (a comment appended: a new compile, the shim precompiled), and
# (3) each run of an unchanged file (the cached kernel). Prints every time and the medians.
#
#   bench/compile_latency.sh [build/release] [edits, default 5]
set -euo pipefail
build=${1:-build/release}
edits=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
warpsim="$here/$build/cli/warpsim"
[[ -x "$warpsim" ]] || { echo "compile_latency.sh: no warpsim at $warpsim" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-compile-latency-XXXXXX")
trap 'rm -rf "$work"' EXIT
kernel="$work/kernel.cu"
cp "$here/lessons/04-butterfly-reduction/kernel.cu" "$kernel"
run() {
  local start end
  start=$(date +%s.%N)
  WARPSIM_CACHE_DIR="$work/cache" "$warpsim" run "$kernel" --kernel butterfly_sum --grid 1 \
    --block 32 --arg 'f32[32]:iota' --arg 'f32[32]:zeros' > /dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("${WARPSIM_CXX:-c++}" --version | head -1)"
echo "first run, shim precompiled too: $(run) s"
cold=() warm=()
for ((i = 0; i < edits; ++i)); do
  echo "// edit $i" >> "$kernel"
  cold+=("$(run)")
  warm+=("$(run)")
done
echo "after an edit (compile): ${cold[*]} s; median $(printf '%s\n' "${cold[@]}" | median) s (goal 0.5 s)"
echo "unchanged (cached): ${warm[*]} s; median $(printf '%s\n' "${warm[@]}" | median) s (goal 0.05 s)"
