#!/usr/bin/env bash
# Checks on this machine's NVIDIA GPU what `warpsim run --gpu` newly takes (issue 11): structs
# passed by value, the u8 i8 u16 i16 f16 bf16 b8 element types, and -I/-D. Runs the device suite
# (ctest -L gpu: tests/gpu/struct_and_small_types_gpu_test.cpp among them), then a few
# `warpsim run --gpu` commands whose buffers must be identical to the simulator's; exits non-zero
# on the first that is not. Writes what it printed to docs/gpu-runs/struct-args.txt.
#
#   tests/gpu/check_struct_args_gpu.sh [--build DIR]     (default build/release, built here)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build/release"
if [[ "${1:-}" == "--build" ]]; then build="$2"; fi
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "check_struct_args_gpu.sh: no CUDA device here (nvidia-smi finds none)" >&2
  exit 3
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target warpsim warpsim-kernel-host gpu_device_tests gpu_offline_tests
ctest --test-dir "$build" -R 'gpu_(device|offline)_tests' --output-on-failure

kernels="$root/tests/runner/kernels"
out="$root/docs/gpu-runs/struct-args.txt"
mkdir -p "$(dirname "$out")"
: >"$out"
check() {
  echo "\$ warpsim run $*" | sed "s|$root/||g" | tee -a "$out"
  local text
  text="$("$build/cli/warpsim" run "$@" --gpu 2>&1)" || { echo "$text"; exit 1; }
  echo "$text" | grep -E '^GPU:|buffer arg' | tee -a "$out"
  if echo "$text" | grep -E 'buffer arg' | grep -vq 'identical'; then
    echo "check_struct_args_gpu.sh: a buffer differs from the simulator's" >&2
    exit 1
  fi
}
check "$kernels/struct_args.cu" --kernel scale_by_params --grid 2 --block 32 \
  --arg '{i32:40; f32:0.5; f32[64]:iota}' --arg 'f32[64]:zeros'
check "$kernels/struct_args.cu" --kernel write_through_mixed --grid 1 --block 32 \
  --arg '{i8:-3; f64:2.5; i32[32]:zeros; i16:-300}'
check "$kernels/struct_args.cu" --kernel int_pointer_short --grid 1 --block 32 \
  --arg '{i32:7; u64[32]:iota; i16:-5}' --arg 'u64[2]:zeros'
check "$kernels/struct_args.cu" --kernel tagged --grid 1 --block 32 --arg '{i32:40; i32[32]:zeros}'
check "$kernels/struct_args.cu" --kernel by_float4 --grid 1 --block 32 \
  --arg '{f32:1; f32:2; f32:3; f32:4}' --arg 'f32[32]:zeros'
check "$kernels/element_types.cu" --kernel u8_kernel --grid 1 --block 32 \
  --arg 'u8[32]:iota' --arg 'u8[32]:zeros' --arg 'u8:200'
check "$kernels/element_types.cu" --kernel i16_kernel --grid 1 --block 32 \
  --arg 'i16[32]:random:4' --arg 'i16[32]:zeros' --arg 'i16:-7'
check "$kernels/element_types.cu" --kernel f16_kernel --grid 1 --block 32 \
  --arg 'f16[32]:random:5' --arg 'f16[32]:zeros' --arg 'f16:0.5'
check "$kernels/element_types.cu" --kernel bf16_kernel --grid 1 --block 32 \
  --arg 'bf16[32]:random:6' --arg 'bf16[32]:zeros' --arg 'bf16:1.5'
check "$kernels/element_types.cu" --kernel b8_kernel --grid 1 --block 32 \
  --arg 'b8[32]:iota' --arg 'b8[32]:zeros' --arg 'b8:true'
check "$kernels/compile_options.cu" --kernel scaled --grid 1 --block 32 \
  -I "$kernels/include_dir" -D OFFSET=5 -D TWICE --arg 'i32[32]:zeros'
echo "check_struct_args_gpu.sh: every buffer identical; written to ${out#$root/}"
