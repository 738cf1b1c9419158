// Reference solution of the exercise block-reduction (lessons/14-block-reduction).
#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[32];  // one slot per warp: enough for 1024 threads
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = blockDim.x / 32;

  float v = i < n ? in[i] : 0.0f;  // past the end: add 0, but stay for the shuffles and the barrier
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = lane < warps ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}
