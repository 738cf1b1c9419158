// Wrong: after a shfl_down reduction only lane 0 holds the warp's sum; lane 31 holds its own value
// plus whatever it read from itself. Lane 31 writes.
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = t < n ? in[t] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (lane == 31) out[t / 32] = v;
}
