// Wrong: no barrier between the two stages. Warp 0 may read the other warps' slots before they
// have written them (or, in the simulator, read what an earlier block left there).
#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) warp_sums[warp] = v;
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}
