// Block reduction in the style of the classic "reduction" tutorial: each thread adds two
// elements while loading, a shared-memory tree halves the block down to 64 partial sums, the
// first warp finishes with shuffles, and thread 0 adds the block's sum to a global total.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

__global__ void block_sum_atomic(const int* __restrict__ in, int* __restrict__ block_sums,
                                 int* total, int n) {
  __shared__ int sdata[BLOCK_SIZE];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

  int sum = (i < n) ? in[i] : 0;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
    __syncthreads();
  }

  // The whole first warp takes this branch, so the full mask is right here.
  if (tid < 32) {
    if (blockDim.x >= 64) sum += sdata[tid + 32];
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, offset);
  }

  if (tid == 0) {
    block_sums[blockIdx.x] = sum;
    atomicAdd(total, sum);
  }
}
