// The shfl_down reduction: lane 0 ends with the sum of all 32 values. The other lanes end with
// partial sums that nothing should use.
#include <cuda_runtime.h>

__global__ void shfl_down_sum(const float* in, float* partial, float* total) {
  int lane = threadIdx.x % 32;
  float v = in[lane];
  // Each round, lane i adds the v of lane i + offset, and the lanes that still matter halve:
  // after offset 16 only lanes 0-15 are read again, after 8 only lanes 0-7, ..., after 1 lane 0.
  for (int offset = 16; offset > 0; offset /= 2) {
    // A lane whose i + offset is past lane 31 gets its own v back and adds it to itself: its
    // sum goes wrong, but no lane that matters reads it later.
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  partial[lane] = v;  // kept to show what every lane ends with
  if (lane == 0) *total = v;
}
