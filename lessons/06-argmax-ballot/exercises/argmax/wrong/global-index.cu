// Wrong: writes the index of the element in the grid (32w + lane) instead of the lane.
#include <cuda_runtime.h>

__global__ void warp_argmax(const int* in, int* arg) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  const int max_v = __reduce_max_sync(0xffffffff, v);
  const unsigned at_max = __ballot_sync(0xffffffff, v == max_v);
  if (threadIdx.x % 32 == 0) arg[t / 32] = t + __ffs(at_max) - 1;
}
