// Segmented reduction: the warp's 32 values are cut into segments of any length, each starting at
// a lane whose head flag is set, and each segment's sum goes to out[segment number].
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  int lane = threadIdx.x % 32;
  float v = in[lane];
  bool is_head = lane == 0 || head[lane] != 0;  // lane 0 always starts a segment

  unsigned heads = __ballot_sync(0xffffffff, is_head);  // bit k: lane k starts a segment
  // My segment ends just before the first head above me, or at lane 31 if there is none.
  // (2u << lane) - 1 has the bits of lanes 0..lane; for lane 31 it is 0 - 1 = all bits.
  unsigned later_heads = heads & ~((2u << lane) - 1);
  int seg_end = later_heads ? __ffs(later_heads) - 2 : 31;

  // Suffix sums inside the segment: after the step with offset d, lane i holds the sum of lanes
  // i .. min(i + 2d - 1, seg_end). Every lane reads lane i + d, but adds it only when that lane
  // is in its own segment. At the end each head holds its segment's total.
  for (int d = 1; d < 32; d *= 2) {
    float partner = __shfl_down_sync(0xffffffff, v, d);  // step: correct
    if (lane + d <= seg_end) v += partner;
  }

  // Segment k (counting from 0) is the one whose head has k heads below it.
  if (is_head) out[__popc(heads & ((1u << lane) - 1))] = v;
}

// Find the bug: this version looks almost the same, and it gives the right sums on some inputs.
// Run the preset `buggy` and compare its output with the reference's.
__global__ void segmented_sum_buggy(const float* in, const int* head, float* out) {
  int lane = threadIdx.x % 32;
  float v = in[lane];
  bool is_head = lane == 0 || head[lane] != 0;
  unsigned heads = __ballot_sync(0xffffffff, is_head);
  int seg_end = lane | 7;  // the last lane of my segment

  for (int d = 1; d < 32; d *= 2) {
    float partner = __shfl_down_sync(0xffffffff, v, d);  // step: buggy
    if (lane + d <= seg_end) v += partner;
  }
  if (is_head) out[__popc(heads & ((1u << lane) - 1))] = v;
}
