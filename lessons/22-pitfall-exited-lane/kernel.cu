// Lesson 22 (pitfall): reading a lane that has exited.
// The maximum of n values (n <= 32), one per lane.
//
// WHAT IS WRONG in warp_max: lanes n and above return at once. Naming exited lanes in a mask is
// allowed (they are simply not waited for), but READING a value from one is undefined: lane 4
// asks lane 20 for its v at offset 16, and lane 20 no longer exists. An H100 returns 0 there.
// For a sum that zero would pass unnoticed; for a maximum of negative numbers it becomes the
// answer. warp_max_fixed keeps every lane to the end and gives the lanes past n the neutral
// element of max, INT_MIN.
#include <climits>
#include <cuda_runtime.h>

__global__ void warp_max(const int* in, int* out, int n) {
  const int lane = threadIdx.x % 32;
  if (lane >= n) return;  // WRONG: the shuffles below still read these lanes
  int v = in[lane];
  for (int offset = 16; offset > 0; offset /= 2) {
    v = max(v, __shfl_down_sync(0xffffffff, v, offset));  // step: max
  }
  if (lane == 0) *out = v;
}

__global__ void warp_max_fixed(const int* in, int* out, int n) {
  const int lane = threadIdx.x % 32;
  int v = lane < n ? in[lane] : INT_MIN;  // every lane stays; INT_MIN never wins a max
  for (int offset = 16; offset > 0; offset /= 2) {
    v = max(v, __shfl_down_sync(0xffffffff, v, offset));
  }
  if (lane == 0) *out = v;
}
