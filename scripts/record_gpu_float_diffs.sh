#!/usr/bin/env bash
# On a GPU machine: why two cuda-samples' float buffers differ from the GPU's, element by element
# (docs/compat/cuda-samples-gpu-current.md). Each program runs under `warpsim exec --gpu` three
# ways: as nvcc builds it by default (multiply-adds contracted into FMAs), with the GPU side
# built `-fmad=false`, and with the simulator's side compiled as GCC contracts multiply-adds
# (`-O2 -mfma -ffp-contract=fast`, both sides' host code too); scripts/buffer_diff.py then
# says how the differences spread.
#
#   scripts/record_gpu_float_diffs.sh CUDA_SAMPLES_CHECKOUT [--out DIR]
#
# Writes DIR/float-diffs.txt (default docs/compat) and DIR/device.txt; warpsim is built in
# build/gpu unless $WARPSIM names a built one. Exit 3 without a CUDA device.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="" out="$root/docs/compat"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "record_gpu_float_diffs.sh: unknown argument $1" >&2; exit 2 ;;
    *) samples="$1"; shift ;;
  esac
done
[[ -d "$samples/Samples" ]] || { echo "record_gpu_float_diffs.sh: give a cuda-samples checkout (no Samples/ in '$samples')" >&2; exit 2; }
samples="$(cd "$samples" && pwd)"
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu_float_diffs.sh
mkdir -p "$out"
WARPSIM="$(warpsim_for_gpu "$root" "$root/build/gpu" record_gpu_float_diffs.sh)" || exit 1
device_lines > "$out/device.txt"

q="$samples/Samples/5_Domain_Specific/quasirandomGenerator"
f="$samples/Samples/5_Domain_Specific/FDTD3d"
quasirandom=("$q/quasirandomGenerator.cpp" "$q/quasirandomGenerator_gold.cpp"
             "$q/quasirandomGenerator_kernel.cu" -I "$samples/Common")
# A 96^3 volume, so that every launch's buffers stay within exec's budget and are compared.
fdtd=("$f/src/FDTD3d.cpp" "$f/src/FDTD3dGPU.cu" "$f/src/FDTD3dReference.cpp" -I "$f/inc"
      -I "$samples/Common" -- --dimx=96 --dimy=96 --dimz=96)
variants=("nvcc default:" "GPU side -fmad=false:--Xnvcc=-fmad=false"
          "simulator side contracted:--Xcompiler=-O2,-mfma,-ffp-contract=fast")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
  cat "$out/device.txt"
  echo "warpsim $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(no git)')"
  for program in quasirandomGenerator FDTD3d; do
    for variant in "${variants[@]}"; do
      label="${variant%%:*}" flag="${variant#*:}"
      echo
      echo "## $program, $label${flag:+ ($flag)}"
      rm -rf "$work/buffers"
      if [[ $program == quasirandomGenerator ]]; then
        args=("${quasirandom[@]}") abs=(--abs-at-least 1.40)  # the tails, where __logf runs
      else
        args=("${fdtd[@]}") abs=()
      fi
      (cd "$work" && "$WARPSIM" exec --gpu --time-limit 300 --buffers "$work/buffers" ${flag:+"$flag"} \
        "${args[@]}" > "$work/log" 2>&1)
      echo "exec --gpu exit status $? ($(grep -c . "$work/log") lines of output)"
      python3 "$root/scripts/buffer_diff.py" "$work/buffers" "${abs[@]}" --max-lines 4
    done
  done
} > "$out/float-diffs.txt"
cat "$out/float-diffs.txt"
