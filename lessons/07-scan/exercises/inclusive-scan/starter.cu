// Exercise inclusive-scan (lesson 07, scan): see statement.md.
// Grade it with:  warpsim grade inclusive-scan starter.cu
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];

  // TODO: make v the sum of this warp's values from lane 0 up to this lane (lane included).
  (void)lane;

  out[i] = v;
}
