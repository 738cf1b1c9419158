// Right: every lane takes part; lanes past n add 0. A butterfly leaves the sum in every lane.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  float v = lane < n ? in[lane] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  if (lane == 0) *out = v;
}
