// Wrong: the keys are compared as unsigned, so -1 (0xffffffff) is the largest key.
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  unsigned key = static_cast<unsigned>(keys[t]);
  for (int k = 2; k <= 32; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      const unsigned other = __shfl_xor_sync(0xffffffff, key, j);
      const bool ascending = (lane & k) == 0;
      const bool lower = (lane & j) == 0;
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  keys[t] = static_cast<int>(key);
}
