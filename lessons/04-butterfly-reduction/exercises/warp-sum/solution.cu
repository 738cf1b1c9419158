// Reference solution of the exercise warp-sum (lessons/04-butterfly-reduction).
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;  // thread of the grid
  const int lane = threadIdx.x % 32;
  float v = t < n ? in[t] : 0.0f;
  // Butterfly: after the round with offset k, every lane holds the sum of the 2k lanes that
  // differ from it only in the bits below 2k; after offset 1, every lane holds the warp's sum.
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffff, v, offset);
  }
  if (lane == 0) out[t / 32] = v;
}
