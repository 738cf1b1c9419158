// Wrong: lesson 14's kernel assumes 256 threads, 8 warps; with other block sizes it reads 8 warp
// sums anyway (slots no warp wrote, or only 8 of 32).
#include <cuda_runtime.h>

#define WARPS 8

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < WARPS ? warp_sums[lane] : 0.0f;
    for (int offset = WARPS / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}
