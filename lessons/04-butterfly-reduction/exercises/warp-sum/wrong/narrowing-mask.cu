// Wrong: after each round only the lower half of the lanes still matters, so the mask shrinks to
// them; but every lane still calls the shuffle, and lanes 16-31 (then 8-31, ...) call with a mask
// that does not name them. Lane 0's sum comes out right; the calls are undefined behaviour.
#include <cuda_runtime.h>

__global__ void warp_sum(const float* in, float* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = t < n ? in[t] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    const unsigned mask = 0xffffffffu >> (32 - 2 * offset);  // the lanes that still matter
    v += __shfl_down_sync(mask, v, offset);
  }
  if (lane == 0) out[t / 32] = v;
}
