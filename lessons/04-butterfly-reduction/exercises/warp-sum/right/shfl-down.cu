// Right: the shfl_down reduction of lesson 05; only lane 0 ends with the sum, and lane 0 writes.
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = t < n ? in[t] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (threadIdx.x % 32 == 0) out[t / 32] = v;
}
