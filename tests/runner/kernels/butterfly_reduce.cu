// Butterfly (xor) reduction: after five __shfl_xor_sync steps every lane holds the warp's sum.
#include <cuda_runtime.h>

__device__ float warp_sum(float value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(0xffffffff, value, offset);
  }
  return value;
}

__global__ void butterfly_reduce(const float* __restrict__ in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float sum = warp_sum(i < n ? in[i] : 0.0f);
  out[i] = sum;
}
