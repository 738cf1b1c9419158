// Max, min, argmax and argmin of a warp's 32 values. __reduce_max_sync and __reduce_min_sync
// (sm_80 and later) find the value, a ballot finds the lanes that hold it, and __ffs picks the
// lowest of those lanes, so ties go to the lowest lane.
#include <cuda_runtime.h>

// result[0] = max, result[1] = its lane, result[2] = min, result[3] = its lane.
__global__ void warp_argmax(const int* in, int* result) {
  int lane = threadIdx.x % 32;
  int v = in[lane];

  // Every lane receives the maximum of the 32 values.
  int max_v = __reduce_max_sync(0xffffffff, v);
  // Bit k is set when lane k holds the maximum; ties set several bits.
  unsigned at_max = __ballot_sync(0xffffffff, v == max_v);
  // __ffs counts bit positions from 1 (and returns 0 for an empty mask, which cannot happen here:
  // some lane holds the maximum), so subtract 1 to get the lowest lane.
  int argmax = __ffs(at_max) - 1;

  int min_v = __reduce_min_sync(0xffffffff, v);
  unsigned at_min = __ballot_sync(0xffffffff, v == min_v);
  int argmin = __ffs(at_min) - 1;

  if (lane == 0) {
    result[0] = max_v;
    result[1] = argmax;
    result[2] = min_v;
    result[3] = argmin;
  }
}
