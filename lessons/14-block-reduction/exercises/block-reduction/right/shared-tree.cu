// Right, without shuffles: the classic shared-memory tree, a barrier in every round.
#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float s[1024];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  // Fold the upper part onto the lower until one element is left (any block size).
  for (int size = blockDim.x; size > 1;) {
    const int half = (size + 1) / 2;
    if (threadIdx.x < size - half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
    size = half;
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = s[0];
}
