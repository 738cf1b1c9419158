// Right, without warp-level calls: lane 0 adds the n values itself.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  if (threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += in[i];
  *out = sum;
}
