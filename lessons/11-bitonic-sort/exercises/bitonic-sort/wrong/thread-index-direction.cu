// Wrong: threadIdx.x & k is the lane's bit only for k < 32; for k = 32 it is bit 5 of threadIdx.x,
// set in warps 1, 3, 5, ..., which therefore end sorted descending.
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[t];
  for (int k = 2; k <= 32; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      const int other = __shfl_xor_sync(0xffffffff, key, j);
      const bool ascending = (threadIdx.x & k) == 0;
      const bool lower = (threadIdx.x & j) == 0;
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  keys[t] = key;
}
