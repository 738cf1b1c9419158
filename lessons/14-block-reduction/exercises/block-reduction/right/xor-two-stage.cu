// Right: butterflies in both stages; every warp of the block takes part in stage 2 (each gets the
// total), and thread 0 writes it.
#include <cuda_runtime.h>

__device__ float warp_total(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = warp_total(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = warp_total(lane < static_cast<int>(blockDim.x / 32) ? warp_sums[lane] : 0.0f);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = v;
}
