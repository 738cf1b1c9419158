// Warp functions under test: plain CUDA C++, compiled for the simulator by including it in a test
// that links warpsim::sim (the shim provides <cuda_runtime.h>), and by nvcc for the GPU.
#pragma once

#include <cuda_runtime.h>

// Butterfly reduction: after five __shfl_xor_sync steps every lane holds the sum of the warp.
__device__ inline float warp_sum(float value, unsigned mask = 0xffffffffu) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(mask, value, offset);
  return value;
}

__global__ void warp_sums(const float* in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_sum(in[i]);
}

// A bug: only the first 16 lanes reduce, but they name the whole warp in the mask, so they read
// lanes that have already returned.
__global__ void half_warp_sums(const float* in, float* out) {
  const unsigned i = threadIdx.x;
  if (i < 16) out[i] = warp_sum(in[i]);
}
