// Right, with a partial mask: only lanes 0..n-1 call, the mask names exactly them, and every
// shuffle reads a lane below n. Each lane adds the n values one broadcast at a time.
#include <cuda_runtime.h>

__global__ void tail_sum(const float* in, float* out, int n) {
  const int lane = threadIdx.x % 32;
  const unsigned mask = __ballot_sync(0xffffffff, lane < n);
  if (lane < n) {
    const float v = in[lane];
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += __shfl_sync(mask, v, k);
    if (lane == 0) *out = sum;
  }
}
