// Right, without shuffles: each lane adds the warp's elements up to its own.
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int base = i - i % 32;
  int sum = 0;
  for (int k = base; k <= i; ++k) sum += in[k];
  out[i] = sum;
}
