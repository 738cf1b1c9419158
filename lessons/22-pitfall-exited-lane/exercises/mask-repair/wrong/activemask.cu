// Wrong: __activemask() inside the branch names the lanes that happen to run together there; it
// synchronizes nothing, and lane 4 still reads lane 20 at offset 16, which is not in the mask.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  float v = 0.0f;
  if (lane < n) {
    const unsigned mask = __activemask();
    v = in[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(mask, v, offset);
    }
  }
  if (lane == 0) *out = v;
}
