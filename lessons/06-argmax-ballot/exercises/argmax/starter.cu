// Exercise argmax (lesson 06, argmax with a ballot): see statement.md.
// Grade it with:  warpsim grade argmax starter.cu
#include <cuda_runtime.h>

__global__ void warp_argmax(const int* in, int* arg) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int v = in[t];
  int best_lane = 0;

  // TODO: find the lane of the warp's largest value (the lowest such lane on ties).
  (void)v;

  if (lane == 0) arg[t / 32] = best_lane;
}
