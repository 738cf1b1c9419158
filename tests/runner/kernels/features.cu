// A namespaced kernel template with dynamic shared memory, a block barrier and device printf.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

namespace demo {

__device__ __forceinline__ int warp_reduce(int v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

template <int BLOCK>
__global__ void block_sum(const int* __restrict__ in, int* out) {
  extern __shared__ __align__(16) int partial[];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int v = warp_reduce(in[blockIdx.x * BLOCK + threadIdx.x]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int w = 0; w < BLOCK / 32; ++w) sum += partial[w];
    out[blockIdx.x] = sum;
    printf("block %d: sum %d\n", blockIdx.x, sum);
  }
}

}  // namespace demo

/* a kernel in a comment is not a kernel: __global__ void not_a_kernel(int* x) {} */
__global__ void scale(float* data, float factor, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
