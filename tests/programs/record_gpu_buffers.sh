#!/usr/bin/env bash
# Runs every corpus program (tests/programs/*.cu) with `warpsim exec --gpu`, which compares the
# simulated program with the nvcc-built one on the GPU: stdout, exit status and the buffers after
# every launch. Writes, for CI and machines without a GPU:
#   tests/programs/recorded/buffers.txt          each program's exec --gpu verdict, with the
#                                                device, driver, CUDA and date
#   tests/programs/recorded/buffers/<name>/buffers.tsv  the GPU's index of every launch's buffers
#       (their hashes), which launch_buffers_tests and `warpsim exec --compare-buffers` compare
#       the simulator's with; beside it the bytes (<launch>-<arg>.bin) of any GPU buffer whose
#       hash differs from the simulator's, for an element-by-element comparison
#
#   tests/programs/record_gpu_buffers.sh [NAME...]
#
# Needs a CUDA device, nvcc and a built warpsim ($WARPSIM, default build/release/cli/warpsim).
# Exit status: 0 when every program's buffers match, 1 otherwise, 3 without a CUDA device.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
warpsim="${WARPSIM:-$root/build/release/cli/warpsim}"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "record_gpu_buffers.sh: no CUDA device here (nvidia-smi finds none)" >&2
  exit 3
fi
[[ -x "$warpsim" ]] || { echo "record_gpu_buffers.sh: no warpsim at $warpsim (set WARPSIM)" >&2; exit 2; }

names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for file in "$here"/*.cu; do names+=("$(basename "$file" .cu)"); done
fi
device="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1)"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
cuda="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p' | head -n1)"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD -- 2>/dev/null || commit="$commit with uncommitted changes"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$here/recorded/buffers"
mkdir -p "$out"
summary="$here/recorded/buffers.txt"
failures=0
{
  echo "# warpsim exec --gpu on every corpus program: stdout, exit status, every launch's buffers"
  echo "# device: $device; nvcc: CUDA $cuda"
  echo "# recorded: $(date -u +%Y-%m-%dT%H:%M:%SZ) at commit $commit by tests/programs/record_gpu_buffers.sh"
} > "$summary"
for name in "${names[@]}"; do
  keep="$work/$name"
  status=0
  # A first line "// nvcc flags: -rdc=true" goes to the GPU build (exec --Xnvcc).
  nvcc_flags="$(sed -n '1s|^// nvcc flags: ||p' "$here/$name.cu" | tr ' ' ',')"
  (cd "$root" && "$warpsim" exec --gpu ${nvcc_flags:+"--Xnvcc=$nvcc_flags"} --buffers "$keep" "tests/programs/$name.cu") \
    > "$work/$name.out" 2> "$work/$name.err" || status=$?
  {
    echo
    echo "\$ warpsim exec --gpu tests/programs/$name.cu    (exit $status)"
    grep '^warpsim exec --gpu\|^  ' "$work/$name.err"
  } >> "$summary"
  [[ -n "${RECORD_BUFFERS_KEEP:-}" ]] && mkdir -p "$RECORD_BUFFERS_KEEP" && cp -r "$keep" "$work/$name.out" "$work/$name.err" "$RECORD_BUFFERS_KEEP/" 2>/dev/null
  [[ $status -eq 0 ]] || failures=$((failures + 1))
  echo "$name: exit $status" >&2
  if [[ -f "$keep/gpu/buffers.tsv" ]]; then
    rm -rf "${out:?}/$name"
    mkdir -p "$out/$name"
    # Keep the bytes only of buffers the simulator disagrees with (by hash); the rest as hashes.
    awk -F'\t' -v OFS='\t' -v sim="$keep/simulator/buffers.tsv" -v from="$keep/gpu" \
        -v to="$out/$name" '
      BEGIN { while ((getline line < sim) > 0) { split(line, f, "\t");
                if (f[1] == "B") hash[f[2] "/" f[3]] = f[8] } }
      $1 == "B" && $9 != "-" {
        if (hash[$2 "/" $3] != $8) { system("cp \"" from "/" $9 "\" \"" to "/\"") }
        else { $9 = "-" } }
      { print }' "$keep/gpu/buffers.tsv" > "$out/$name/buffers.tsv"
  fi
done
echo "exec --gpu on ${#names[@]} programs: $failures not matching (see $summary)" >&2
[[ $failures -eq 0 ]]
