// Lesson 23 (pitfall): different collectives in the two arms of a branch.
// Two phases of an odd-even transposition sort on 32 values, one per lane. Phase 1 compares the
// pairs (0,1), (2,3), ..., phase 2 the pairs (1,2), (3,4), ..., (29,30); in each pair the lower
// lane keeps the smaller value and the upper lane the larger.
//
// WHAT IS WRONG in sort_phases: in phase 2 the odd lanes fetch their right neighbour with
// __shfl_down_sync and the even lanes their left neighbour with __shfl_up_sync, in the two arms
// of an if, both with the full mask. Each call waits for all 32 lanes, but half of them wait in
// the OTHER call. A shift-up and a shift-down never combine into one operation: on an H100 the
// warp hangs for good (the kernel never returns). The simulator detects the deadlock and stops.
// sort_phases_fixed gives every lane one call of the same shuffle, __shfl_sync, with a source
// lane computed per lane.
#include <cuda_runtime.h>

__global__ void sort_phases(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  int v = in[lane];

  // Phase 1: the partner is lane ^ 1 for everyone: one shuffle, all 32 lanes.
  const int p1 = __shfl_xor_sync(0xffffffff, v, 1);  // step: phase 1
  v = lane % 2 == 0 ? min(v, p1) : max(v, p1);

  // Phase 2 (WRONG): two different shuffles in the two arms, each naming all 32 lanes.
  if (lane % 2 == 1) {
    const int right = __shfl_down_sync(0xffffffff, v, 1);  // phase 2, odd lanes
    if (lane < 31) v = min(v, right);
  } else {
    const int left = __shfl_up_sync(0xffffffff, v, 1);  // phase 2, even lanes
    if (lane > 0) v = max(left, v);
  }
  out[lane] = v;
}

__global__ void sort_phases_fixed(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  int v = in[lane];

  const int p1 = __shfl_xor_sync(0xffffffff, v, 1);
  v = lane % 2 == 0 ? min(v, p1) : max(v, p1);

  // Phase 2: odd lanes read lane + 1, even lanes lane - 1, lanes 0 and 31 themselves. One call.
  int partner = lane % 2 == 1 ? lane + 1 : lane - 1;
  if (partner < 0 || partner > 31) partner = lane;
  const int p2 = __shfl_sync(0xffffffff, v, partner);
  v = lane < partner ? min(v, p2) : max(v, p2);
  out[lane] = v;
}
