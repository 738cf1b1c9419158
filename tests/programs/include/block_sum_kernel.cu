// A kernel file that the program includes (`#include "include/block_sum_kernel.cu"`), as
// Rodinia's benchmarks keep their kernels: its dynamic shared array and its loops are rewritten
// as the program's own are.
#pragma once

template <int BLOCK>
__global__ void blockSum(const int* in, int* out, int n) {
  extern __shared__ int partial[];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
