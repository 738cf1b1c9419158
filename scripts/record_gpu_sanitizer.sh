#!/usr/bin/env bash
# On a GPU machine: programs built by nvcc and run under one of compute-sanitizer's tools (the
# vendor's checks), beside warpsim's account of the same source, so that the two lists of
# findings can be compared line by line.
#
#   scripts/record_gpu_sanitizer.sh [--tool initcheck|memcheck] [--out DIR] [--nvcc-flag F]...
#       FILE.cu... [-- PROGRAM ARGS]
#
# initcheck (the default) is compared with `warpsim exec --check uninit` (uninitialised reads of
# global memory); memcheck with plain `warpsim exec` (reads and writes just outside a cudaMalloc'd
# block). Each program runs in its own folder with PROGRAM ARGS. --nvcc-flag goes to nvcc alone
# (e.g. -DcudaThreadSynchronize=cudaDeviceSynchronize for a program older than CUDA 13).
# Writes DIR/NAME.TOOL.txt (compute-sanitizer's reports, counted by the line they name),
# DIR/NAME.warpsim.txt and DIR/device.txt (default DIR: docs/checks/TOOL). warpsim is built in
# build/gpu unless $WARPSIM names one. Exit 3 without a CUDA device or compute-sanitizer.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool=initcheck out="" files=() nvcc_flags=() program_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tool) tool="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --nvcc-flag) nvcc_flags+=("$2"); shift 2 ;;
    --) shift; program_args=("$@"); break ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
case "$tool" in
  initcheck) report='Uninitialized __global__ memory read'; warpsim_args=(--check uninit)
             finding='^ *uninitialized_global_read at' ;;
  memcheck) report='Invalid __global__ (read|write)'; warpsim_args=()
            finding='^ *out_of_bounds at' ;;
  *) echo "record_gpu_sanitizer.sh: --tool is initcheck or memcheck, not $tool" >&2; exit 2 ;;
esac
out="${out:-$root/docs/checks/$tool}"
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu_sanitizer.sh
sanitizer="$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n1)"
[[ -x "$sanitizer" ]] || { echo "record_gpu_sanitizer.sh: no compute-sanitizer" >&2; exit 3; }
[[ ${#files[@]} -gt 0 ]] || { echo "record_gpu_sanitizer.sh: give the .cu files" >&2; exit 2; }
mkdir -p "$out"
WARPSIM="$(warpsim_for_gpu "$root" "$root/build/gpu" record_gpu_sanitizer.sh)" || exit 1
{
  device_lines
  echo "compute-sanitizer: $("$sanitizer" --version | grep -i version | head -n1)"
} > "$out/device.txt"
cat "$out/device.txt" >&2

status=0
scratch="$(mktemp -d)"
for file in "${files[@]}"; do
  name="$(basename "$file" .cu)"
  file="$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
  mkdir -p "$scratch/$name"
  if ! nvcc -arch=sm_90 -lineinfo "${nvcc_flags[@]}" -o "$scratch/$name/program" "$file" \
       2> "$out/$name.$tool.txt"; then
    status=1
    continue
  fi
  # Every report kept, then counted by the code line it names (one line per thread, else).
  (cd "$scratch/$name" && "$sanitizer" --tool "$tool" --print-limit 0 ./program "${program_args[@]}") \
    > "$scratch/$name.full.txt" 2>&1
  grep -E -A1 "$report" "$scratch/$name.full.txt" | grep ' at ' |
    sed 's/^=* *at //; s/+0x[0-9a-f]* in / in /' | sort | uniq -c > "$out/$name.$tool.txt"
  grep 'ERROR SUMMARY' "$scratch/$name.full.txt" >> "$out/$name.$tool.txt"
  (cd "$scratch/$name" && "$WARPSIM" exec "${warpsim_args[@]}" "$file" -- "${program_args[@]}") \
    > "$out/$name.warpsim.txt" 2>&1
  echo "$name: $tool $(grep -E -c "$report" "$scratch/$name.full.txt") reports," \
       "warpsim $(grep -E -c "$finding" "$out/$name.warpsim.txt") findings" >&2
done
rm -rf "$scratch"
exit $status
