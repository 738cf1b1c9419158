// Reference solution of the exercise bitonic-sort (lessons/11-bitonic-sort).
#include <cuda_runtime.h>

__global__ void bitonic_sort(int* keys) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int key = keys[t];
  for (int k = 2; k <= 32; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      const int other = __shfl_xor_sync(0xffffffff, key, j);
      const bool ascending = (lane & k) == 0;  // this lane's run of k lanes
      const bool lower = (lane & j) == 0;      // the lower lane of the pair
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  keys[t] = key;
}
