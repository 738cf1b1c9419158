// Exercise exclusive-scan (lesson 07, scan): see statement.md.
// Grade it with:  warpsim grade exclusive-scan starter.cu
#include <cuda_runtime.h>

__global__ void exclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];

  // TODO: make v the sum of this warp's values below this lane (0 for lane 0).
  (void)lane;

  out[i] = v;
}
