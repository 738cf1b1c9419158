// Wrong: one element per thread; when n is larger than the grid, the rest are never added.
#include <cuda_runtime.h>

__global__ void dot(const float* a, const float* b, float* result, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = i < n ? a[i] * b[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x / 32) ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) atomicAdd(result, v);
  }
}
