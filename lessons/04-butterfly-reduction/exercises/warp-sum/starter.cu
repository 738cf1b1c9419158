// Exercise warp-sum (lesson 04, the butterfly reduction): see statement.md.
// Grade it with:  warpsim grade warp-sum starter.cu
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;  // thread of the grid
  const int lane = threadIdx.x % 32;
  float v = t < n ? in[t] : 0.0f;

  // TODO: add up the 32 values of this warp with warp shuffles, so that lane 0 holds the sum.

  if (lane == 0) out[t / 32] = v;
}
