// Exercise match-histogram (lesson 10, histogram with __match_any_sync): see statement.md.
// Grade it with:  warpsim grade match-histogram starter.cu
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, int* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = i < n ? keys[i] : -1;

  // TODO: find the lanes that hold the same key; one of them adds how many there are to bins[key].
  (void)lane;
  (void)key;
  (void)bins;
}
