// 200 butterfly reductions in a row: 1,000 steps of one warp (the GUI's frame-rate benchmark).
#include <cuda_runtime.h>

__global__ void many_butterflies(const float* in, float* out, int rounds) {
  float v = in[threadIdx.x];
  for (int r = 0; r < rounds; ++r) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
    v *= 0.03125f;
  }
  out[threadIdx.x] = v;
}
