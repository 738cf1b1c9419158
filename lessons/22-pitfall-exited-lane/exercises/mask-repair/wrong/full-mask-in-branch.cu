// Wrong: the full mask promises that all 32 lanes make each call, but lanes n and above skip the
// branch: they are not waiting anywhere near the shuffles, and they have not exited.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  if (lane < n) {
    v = in[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffff, v, offset);
    }
  }
  if (lane == 0) *out = v;
}
