// Segmented scan and reduction inside a warp. A non-zero head flag marks the first element of
// a segment; a ballot of the flags lets each lane find where its segment starts, and the scan
// only adds values from lanes of the same segment. The last lane of each segment holds the
// segment's sum and writes it at the segment's head position.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void segmented_warp_sum(const float* values, const int* head_flags, float* scan_out,
                                   float* segment_sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  float v = values[i];

  unsigned int heads = __ballot_sync(FULL_MASK, head_flags[i] != 0);
  heads |= 1u;  // a warp's first lane always starts a segment

  // The segment starts at the highest head at or below this lane.
  const unsigned int heads_at_or_below = heads & (FULL_MASK >> (31 - lane));
  const int seg_start = 31 - __clz(heads_at_or_below);

  for (int offset = 1; offset < 32; offset <<= 1) {
    const float up = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane - offset >= seg_start) v += up;
  }
  scan_out[i] = v;

  const bool is_tail = (lane == 31) || ((heads >> (lane + 1)) & 1u);
  if (is_tail) segment_sums[i - lane + seg_start] = v;
}
