// Exercise block-reduction (lesson 14, reducing a block): see statement.md.
// Grade it with:  warpsim grade block-reduction starter.cu
#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* block_sums, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = i < n ? in[i] : 0.0f;

  // TODO: stage 1, every warp's sum; stage 2, the sum of the warp sums (shared memory and
  // __syncthreads in between).

  if (threadIdx.x == 0) block_sums[blockIdx.x] = v;
  (void)lane;
}
