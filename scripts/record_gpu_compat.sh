#!/usr/bin/env bash
# On a GPU machine: the public suites' programs that pass in the simulator, run again with
# `warpsim exec --gpu` (stdout, exit status and every launch's buffers compared with the same
# program built by nvcc), and the whole-program benchmarks on every core of that machine.
#
#   scripts/record_gpu_compat.sh [--samples CUDA_SAMPLES_CHECKOUT --only NAME,NAME,...
#       [--suite-commit SHA]] [--rodinia RODINIA_CHECKOUT [--rodinia-commit SHA]] [--out DIR]
#       [--bench]
#
# Writes DIR/cuda-samples-gpu.md (compat.py's table with a GPU column, the samples named by
# --only), DIR/rodinia-gpu.md (every Rodinia program; cfd and leukocyte take helper_cuda.h from
# --samples' Common), DIR/bench-programs.md (bench/programs/run.py on this machine) and
# DIR/device.txt. warpsim is built in build/gpu unless $WARPSIM names a built one. Exit 3
# without a CUDA device.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="" rodinia="" rodinia_commit="" only="" commit="" out="$root/docs/compat" bench=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --samples) samples="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --rodinia) rodinia="$2"; shift 2 ;;
    --rodinia-commit) rodinia_commit="$2"; shift 2 ;;
    --suite-commit) commit="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --bench) bench=1; shift ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "record_gpu_compat.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. "$root/scripts/gpu_recording.sh"
require_gpu record_gpu_compat.sh
[[ -z "$samples" || -d "$samples" ]] || { echo "record_gpu_compat.sh: --samples $samples: no such folder" >&2; exit 2; }
[[ -z "$rodinia" || -d "$rodinia" ]] || { echo "record_gpu_compat.sh: --rodinia $rodinia: no such folder" >&2; exit 2; }
[[ -n "$samples$rodinia" || $bench == 1 ]] || { echo "record_gpu_compat.sh: give --samples, --rodinia or --bench" >&2; exit 2; }
mkdir -p "$out"
WARPSIM="$(warpsim_for_gpu "$root" "$root/build/gpu" record_gpu_compat.sh)" || exit 1
export WARPSIM
device_lines > "$out/device.txt"
cat "$out/device.txt" >&2

status=0
if [[ -n "$samples" && -n "$only" ]]; then
  python3 "$root/scripts/compat.py" cuda-samples "$samples" --warpsim "$WARPSIM" --gpu \
    --only "$only" ${commit:+--suite-commit "$commit"} --jobs 4 --time-limit 300 \
    --out "$out/cuda-samples-gpu.md" --json "$out/cuda-samples-gpu.json" || status=1
fi
if [[ -n "$rodinia" ]]; then
  python3 "$root/scripts/compat.py" rodinia "$rodinia" --warpsim "$WARPSIM" --gpu \
    ${samples:+--samples "$samples/Common"} ${rodinia_commit:+--suite-commit "$rodinia_commit"} \
    --jobs 4 --time-limit 120 \
    --out "$out/rodinia-gpu.md" --json "$out/rodinia-gpu.json" || status=1
fi
if [[ $bench == 1 ]]; then
  python3 "$root/bench/programs/run.py" --warpsim "$WARPSIM" --size full --runs 3 \
    --out "$out/bench-programs.md" || status=1
fi
exit $status
