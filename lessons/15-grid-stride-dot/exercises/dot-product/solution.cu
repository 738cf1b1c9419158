// Reference solution of the exercise dot-product (lessons/15-grid-stride-dot).
#include <cuda_runtime.h>

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;  // lane 0 holds the warp's sum
}

__global__ void dot(const float* a, const float* b, float* result, int n) {
  __shared__ float warp_sums[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += a[i] * b[i];
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warp_sum(lane < static_cast<int>(blockDim.x / 32) ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(result, v);
  }
}
