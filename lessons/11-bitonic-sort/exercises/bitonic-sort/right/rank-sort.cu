// Right: each lane counts the keys that must come before its own (smaller ones, and equal ones
// of lower lanes) with 32 broadcasts, and writes its key at that rank.
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int key = keys[t];
  int rank = 0;
  for (int k = 0; k < 32; ++k) {
    const int other = __shfl_sync(0xffffffff, key, k);
    if (other < key || (other == key && k < lane)) ++rank;
  }
  // Another lane's key may sit where this one goes: every lane has read its own (line 8) before
  // any lane writes. The shuffles do not order that: a shuffle orders no memory.
  __syncwarp();
  keys[t - lane + rank] = key;
}
