// Right: the same network, deciding per pair whether to take the partner's key.
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  int key = keys[t];
  for (unsigned k = 2; k <= 32; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      const int other = __shfl_xor_sync(0xffffffff, key, j);
      const bool keep_min = ((lane & j) == 0) == ((lane & k) == 0);
      if (keep_min ? other < key : other > key) key = other;
    }
  }
  keys[t] = key;
}
