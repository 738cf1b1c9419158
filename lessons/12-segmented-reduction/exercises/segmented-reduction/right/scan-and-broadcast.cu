// Right: a segmented inclusive scan leaves the segment's last lane with the total; every lane
// reads it from there.
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = in[t];
  const bool is_head = lane == 0 || head[t] != 0;
  const unsigned heads = __ballot_sync(0xffffffff, is_head);
  const int seg_start = 31 - __clz(heads & ((2u << lane) - 1));
  const unsigned later = heads & ~((2u << lane) - 1);
  const int seg_end = later ? __ffs(later) - 2 : 31;
  for (int d = 1; d < 32; d *= 2) {
    const float partner = __shfl_up_sync(0xffffffff, v, d);
    if (lane - d >= seg_start) v += partner;
  }
  out[t] = __shfl_sync(0xffffffff, v, seg_end);
}
