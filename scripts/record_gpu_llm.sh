#!/usr/bin/env bash
# Builds the LLM-kernel harnesses (tests/llm/*.cu) with nvcc for sm_90 and runs them on this
# machine's GPU: the same programs scripts/llm_kernels.py runs under warpsim exec, each checking
# the project's kernel against the same CPU reference. Writes docs/compat/llm-kernels-gpu.md.
#
#   scripts/record_gpu_llm.sh CHECKOUTS [--arch sm_90] [--out FILE] [--build-only]
#
# CHECKOUTS holds llama.cpp/, candle/, llm.c/, flashinfer/, FasterTransformer/ at the commits
# pinned in scripts/llm_kernels.py. --build-only compiles without running (no GPU needed).
# The llama.cpp files' host code calls ggml.c's functions, which no harness links: their
# sections are dropped (-ffunction-sections, --gc-sections), as no kernel reaches them.
# Known not to build with nvcc 13 (checked with 13.0 here): candle's compatibility.cuh defines
# __hmax_nan for __CUDA_ARCH__ < 800, which the host pass of a whole-program build also reads
# (candle compiles its .cu files to PTX only), so candle's kernels also go through
# `warpsim run --gpu` (NVRTC, device code only) below; llm.c at the pinned commit calls
# cudaMemAdvise with a device number, which CUDA 13 replaced by a cudaMemLocation (CUDA 12 builds it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
checkouts=${1:?usage: record_gpu_llm.sh CHECKOUTS [--arch sm_90] [--out FILE] [--build-only]}
shift
arch=sm_90
out="$root/docs/compat/llm-kernels-gpu.md"
build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    *) echo "record_gpu_llm.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "record_gpu_llm.sh: no nvcc (set NVCC)" >&2; exit 3; }
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT

# harness  project  include folders (relative to the project's checkout)
kernels=(
  "llamacpp_rms_norm_f32 llama.cpp . ggml/include ggml/src"
  "llamacpp_soft_max_f32 llama.cpp . ggml/include ggml/src"
  "candle_softmax_f32 candle ."
  "candle_rmsnorm_bf16 candle ."
  "candle_layernorm_f32 candle ."
  "llmc_layernorm_forward llm.c ."
  "llmc_fused_classifier llm.c ."
  "flashinfer_rmsnorm flashinfer include"
  "flashinfer_fused_add_rmsnorm flashinfer include"
  "fastertransformer_layernorm FasterTransformer ."
)

device="(build only)"
if [ $build_only = 0 ]; then
  device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || true)
  [ -n "$device" ] || { echo "record_gpu_llm.sh: no GPU (nvidia-smi found none); use --build-only" >&2; exit 3; }
fi
{
  echo "# LLM kernels on a GPU (nvcc -arch=$arch)"
  echo
  echo "Written by \`scripts/record_gpu_llm.sh\` at warpsim $(git -C "$root" rev-parse --short HEAD), $(date -u +%Y-%m-%d),"
  echo "device: $device, $("$nvcc" --version | tail -1)."
  echo
  echo "| harness | project | build | result line | exit |"
  echo "|---|---|---|---|---|"
} > "$out"
status=0
for entry in "${kernels[@]}"; do
  read -r harness project includes <<< "$entry"
  flags=()
  for include in $includes; do flags+=(-I "$checkouts/$project/$include"); done
  log="$build/$harness.log"
  if "$nvcc" -std=c++17 -O2 -arch="$arch" --expt-relaxed-constexpr -Xcompiler -ffunction-sections \
       -Xlinker --gc-sections "${flags[@]}" -o "$build/$harness" "$root/tests/llm/$harness.cu" > "$log" 2>&1; then
    built=ok
  else
    built="fails: $(grep -m1 -E 'error|undefined' "$log" | sed 's/|/\\|/g' | cut -c1-200)"
    status=1
  fi
  line=""; code=""
  if [ "$built" = ok ] && [ $build_only = 0 ]; then
    set +e
    line=$(timeout 300 "$build/$harness" 2>&1 | grep -m1 LLM-RESULT)
    code=$?
    code=${PIPESTATUS[0]:-$code}
    set -e
    [ -n "$line" ] || status=1
    case "$line" in *result=pass*) ;; *) status=1 ;; esac
  fi
  echo "| $harness | $project | $built | ${line#LLM-RESULT } | $code |" >> "$out"
  echo "$harness: $built ${line#LLM-RESULT }"
done
# candle's kernel files under warpsim run --gpu: the simulator's buffers against the GPU's.
warpsim=${WARPSIM:-$root/build/release/cli/warpsim}
reduce="$checkouts/candle/candle-kernels/src/reduce.cu"
candle_runs=(
  "softmax_f32 --grid 8 --block 1,32 --arg f32[8000]:random:1:-8:8 --arg f32[8000]:zeros --arg i32:1000"
  "rmsnorm_bf16 --grid 4 --block 1024 --arg bf16[8192]:random:2:-3:3 --arg bf16[8192]:zeros --arg bf16[2048]:random:3:0:2 --arg i32:2048 --arg i32:1024 --arg f32:1e-6"
  "layernorm_f32 --grid 16 --block 32 --arg f32[8000]:random:4:-3:3 --arg f32[8000]:zeros --arg f32[500]:random:5:0:2 --arg f32[500]:random:6:-1:1 --arg i32:500 --arg i32:32 --arg f32:1e-5"
)
if [ $build_only = 0 ] && [ -x "$warpsim" ]; then
  { echo; echo "candle's kernels under \`warpsim run --gpu\` (simulator against GPU, same inputs):"; echo; echo '```'; } >> "$out"
  for entry in "${candle_runs[@]}"; do
    read -r kernel rest <<< "$entry"
    # shellcheck disable=SC2086
    "$warpsim" run "$reduce" --kernel "$kernel" $rest --gpu 2>&1 | grep -v '^  arg' | sed "s/^/$kernel: /" >> "$out" || status=1
  done
  echo '```' >> "$out"
fi
echo "wrote $out"
exit $status
