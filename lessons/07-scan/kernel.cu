// Inclusive and exclusive prefix sums (scans) of a warp's 32 values with __shfl_up_sync.
#include <cuda_runtime.h>

__global__ void warp_scan(const int* in, int* inclusive, int* exclusive) {
  int lane = threadIdx.x % 32;
  int v = in[lane];
  // After the round with offset d, lane i holds the sum of the 2 * d values ending at lane i
  // (fewer near lane 0). Lanes below d have no lane d places up: __shfl_up_sync gives them their
  // own v back, which they must not add.
  for (int d = 1; d < 32; d *= 2) {
    int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  inclusive[lane] = v;  // in[0] + ... + in[lane]

  // The exclusive scan of lane i is the inclusive scan of lane i - 1; lane 0's is 0.
  int before = __shfl_up_sync(0xffffffff, v, 1);
  exclusive[lane] = lane == 0 ? 0 : before;
}
