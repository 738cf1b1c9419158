// Block sums with a shared-memory tree, for an input that does not fill the last block.
//
// WHAT IS WRONG: threads past the end return before the __syncthreads() calls, so not every
// thread of the block reaches the barrier. CUDA requires all threads of the block to reach the
// same __syncthreads; recent GPUs release the barrier without the exited threads, so the
// kernel happens to give the right sums here (the exited threads zeroed their slots first).
// Fix: do not return early; guard the load instead (sdata[tid] = (i < n) ? in[i] : 0).
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void block_sum_early_exit(const int* in, int* block_sums, int n) {
  __shared__ int sdata[BLOCK];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;

  sdata[tid] = 0;
  if (i >= n) return;
  sdata[tid] = in[i];
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}
