// Exercise bitonic-sort (lesson 11, bitonic sort in a warp): see statement.md.
// Grade it with:  warpsim grade bitonic-sort starter.cu
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int key = keys[t];

  // TODO: the bitonic network: stages k = 2, 4, ..., 32, steps j = k / 2, ..., 1.
  (void)lane;

  keys[t] = key;
}
