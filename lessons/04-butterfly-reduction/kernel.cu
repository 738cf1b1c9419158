// The butterfly reduction: every lane ends with the sum of all 32 values.
#include <cuda_runtime.h>

__global__ void butterfly_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  // Each round, lane i adds the value of lane i ^ offset: the partners swap halves of the warp,
  // then quarters, and so on, so after log2(32) = 5 rounds every lane holds the whole sum.
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffff, v, offset);
  }
  out[threadIdx.x] = v;
}
