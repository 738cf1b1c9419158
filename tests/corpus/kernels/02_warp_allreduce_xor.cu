// Butterfly all-reduce with __shfl_xor_sync: after log2(32) exchanges every lane holds the
// result, not just lane 0. Shown for a float sum and an int max.
#include <cuda_runtime.h>

__device__ float warp_allreduce_sum(float v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, mask);
  return v;
}

__device__ int warp_allreduce_max(int v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v = max(v, __shfl_xor_sync(0xffffffff, v, mask));
  return v;
}

__global__ void butterfly_allreduce(const float* x, const int* k, float* sums, int* maxes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[i] = warp_allreduce_sum(x[i]);
  maxes[i] = warp_allreduce_max(k[i]);
}
