// Reference solution of the exercise segmented-reduction (lessons/12-segmented-reduction).
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = in[t];
  const bool is_head = lane == 0 || head[t] != 0;
  const unsigned heads = __ballot_sync(0xffffffff, is_head);
  // (2u << lane) - 1 has the bits of lanes 0..lane (for lane 31: 0 - 1, every bit).
  const unsigned upto = heads & ((2u << lane) - 1);
  const unsigned later = heads & ~((2u << lane) - 1);
  const int seg_start = 31 - __clz(upto);                   // lane 0 is a head: upto != 0
  const int seg_end = later ? __ffs(later) - 2 : 31;
  // Suffix sums inside the segment: each head ends with its segment's total.
  for (int d = 1; d < 32; d *= 2) {
    const float partner = __shfl_down_sync(0xffffffff, v, d);
    if (lane + d <= seg_end) v += partner;
  }
  out[t] = __shfl_sync(0xffffffff, v, seg_start);
}
