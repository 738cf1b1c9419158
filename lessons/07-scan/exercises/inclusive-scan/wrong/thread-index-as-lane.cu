// Wrong: threadIdx.x is the lane only in warp 0; in warp 1 every thread has threadIdx.x >= 32 > d.
#include <cuda_runtime.h>

__global__ void inclusive_scan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffff, v, d);
    if (threadIdx.x >= d) v += up;
  }
  out[i] = v;
}
