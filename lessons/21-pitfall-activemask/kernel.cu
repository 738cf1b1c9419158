// Lesson 21 (pitfall): __activemask() used as the mask of a shuffle.
// Sum of the first n inputs (n <= 32), after the example of what not to do in the CUDA
// Programming Guide's section on independent thread scheduling.
//
// WHAT IS WRONG in sum_first: __activemask() only reports which lanes happen to be executing
// this instruction together right now. It synchronizes nothing and promises nothing about the
// shuffles that follow: if the scheduler has split the branch into smaller groups, each group
// gets a smaller mask and sums only its own lanes. And even when the mask is the whole branch
// (lanes 0 to n-1), the shuffles read lanes n and above, which are not in it: lane 4 reads lane
// 20 at offset 16. An H100 returns 0 for such a lane, so the sum is usually right by accident.
// sum_first_fixed keeps all 32 lanes in the reduction (lanes past n add 0) with a full mask.
#include <cuda_runtime.h>

__global__ void sum_first(const int* in, int* out, int n) {
  const int lane = threadIdx.x % 32;
  int v = 0;
  if (lane < n) {
    const unsigned mask = __activemask();  // step: active mask (WRONG: a snapshot, not a promise)
    v = in[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(mask, v, offset);  // step: sum
    }
  }
  if (lane == 0) *out = v;
}

__global__ void sum_first_fixed(const int* in, int* out, int n) {
  const int lane = threadIdx.x % 32;
  int v = lane < n ? in[lane] : 0;  // every lane takes part; the missing elements are 0
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  if (lane == 0) *out = v;
}
