// Wrong: threads past n leave at once. Their lanes' values are then read by the shuffles of the
// lanes that stayed (undefined), and they never reach __syncthreads.
#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}
