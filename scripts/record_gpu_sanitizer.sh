#!/usr/bin/env bash
# On a GPU machine: the programs that exercise `warpsim exec --check uninit`, each built by nvcc
# and run under compute-sanitizer's initcheck (the vendor's uninitialised-memory check), beside
# warpsim's own check of the same source, so the two lists of findings can be compared.
#
#   scripts/record_gpu_initcheck.sh [--out DIR] FILE.cu...
#
# Writes DIR/NAME.initcheck.txt (compute-sanitizer's reports, counted by the line they name), DIR/NAME.warpsim.txt (warpsim exec
# --check uninit's) and DIR/device.txt. warpsim is built in build/gpu unless $WARPSIM names one.
# Exit 3 without a CUDA device or compute-sanitizer.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/docs/checks/initcheck"
files=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu_initcheck.sh
sanitizer="$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n1)"
[[ -x "$sanitizer" ]] || { echo "record_gpu_initcheck.sh: no compute-sanitizer" >&2; exit 3; }
[[ ${#files[@]} -gt 0 ]] || { echo "record_gpu_initcheck.sh: give the .cu files" >&2; exit 2; }
mkdir -p "$out"
WARPSIM="$(warpsim_for_gpu "$root" "$root/build/gpu" record_gpu_initcheck.sh)" || exit 1
{
  device_lines
  echo "compute-sanitizer: $("$sanitizer" --version | grep -i version | head -n1)"
} > "$out/device.txt"
cat "$out/device.txt" >&2

status=0
scratch="$(mktemp -d)"
for file in "${files[@]}"; do
  name="$(basename "$file" .cu)"
  if ! nvcc -arch=sm_90 -lineinfo -o "$scratch/$name" "$file" 2> "$out/$name.initcheck.txt"; then
    status=1
    continue
  fi
  # Every report kept, then counted by the code line it names (one line per thread, else).
  (cd "$scratch" && "$sanitizer" --tool initcheck --print-limit 0 "./$name") \
    > "$scratch/$name.full.txt" 2>&1
  grep -A1 'Uninitialized __global__ memory read' "$scratch/$name.full.txt" | grep ' at ' |
    sed 's/^=* *at //; s/+0x[0-9a-f]* in / in /' | sort | uniq -c > "$out/$name.initcheck.txt"
  grep 'ERROR SUMMARY' "$scratch/$name.full.txt" >> "$out/$name.initcheck.txt"
  "$WARPSIM" exec --check uninit "$file" > "$out/$name.warpsim.txt" 2>&1
  echo "$name: initcheck $(grep -c 'Uninitialized __global__ memory read' "$scratch/$name.full.txt") reads," \
       "warpsim $(grep -c '^ *uninitialized_global_read at' "$out/$name.warpsim.txt") findings" >&2
done
rm -rf "$scratch"
exit $status
