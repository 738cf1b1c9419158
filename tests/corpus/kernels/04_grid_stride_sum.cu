// Grid-stride loop: a fixed-size grid covers an input of any length. Each thread accumulates
// in 64 bits, the warp reduces with 64-bit shuffles, and one atomic per warp adds to the total.
#include <cuda_runtime.h>

__global__ void grid_stride_sum(const unsigned int* __restrict__ in,
                                unsigned long long* __restrict__ total, int n) {
  unsigned long long sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];

#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, offset);

  if ((threadIdx.x & 31) == 0) atomicAdd(total, sum);
}
