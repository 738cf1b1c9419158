// Shared-memory tree reduction with the block's scratch space sized at launch time:
// `extern __shared__` declares an array whose size comes from the launch (here blockDim.x
// floats), so one kernel serves any block size.
#include <cuda_runtime.h>

__global__ void dyn_shared_reduce(const float* in, float* block_sums, int n) {
  extern __shared__ float sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}
