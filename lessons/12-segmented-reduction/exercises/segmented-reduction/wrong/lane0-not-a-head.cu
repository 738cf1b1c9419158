// Wrong: lane 0 counts as a head only when head[] says so. Lanes before the warp's first flag have
// no head at or below them: 31 - __clz(0) is -1, and the shuffle from lane -1 reads lane 31.
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = in[t];
  const bool is_head = head[t] != 0;
  const unsigned heads = __ballot_sync(0xffffffff, is_head);
  const unsigned upto = heads & ((2u << lane) - 1);
  const unsigned later = heads & ~((2u << lane) - 1);
  const int seg_start = 31 - __clz(upto);
  const int seg_end = later ? __ffs(later) - 2 : 31;
  for (int d = 1; d < 32; d *= 2) {
    const float partner = __shfl_down_sync(0xffffffff, v, d);
    if (lane + d <= seg_end) v += partner;
  }
  out[t] = __shfl_sync(0xffffffff, v, seg_start);
}
