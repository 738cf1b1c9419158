// Wrong: assumes every segment is 8 lanes long and starts at a multiple of 8.
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = in[t];
  const int seg_start = lane & ~7;
  const int seg_end = lane | 7;
  for (int d = 1; d < 32; d *= 2) {
    const float partner = __shfl_down_sync(0xffffffff, v, d);
    if (lane + d <= seg_end) v += partner;
  }
  out[t] = __shfl_sync(0xffffffff, v, seg_start);
  (void)head;
}
