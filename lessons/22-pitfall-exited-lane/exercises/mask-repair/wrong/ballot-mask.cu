// Wrong: the mask is computed before the branch, as it should be, and names exactly the lanes
// that call. But shfl_down by 16 makes lane 4 read lane 20, outside the mask: undefined.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  const unsigned mask = __ballot_sync(0xffffffff, lane < n);
  float v = 0.0f;
  if (lane < n) {
    v = in[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(mask, v, offset);
    }
  }
  if (lane == 0) *out = v;
}
