// Separate sums for the lower and the upper half of each warp.
//
// WHAT IS WRONG: the author expects the mask to select who takes part: 0x0000ffff for "only the
// lower half" and 0xffff0000 for "only the upper half". A mask never excludes a lane; it only
// says which lanes must meet. All 32 lanes execute both calls, so in each call half of the
// callers are not in their own mask: undefined in CUDA. Hardware lets converged callers take
// part, so each call actually reduces both halves. Fix: one call with the full mask and
// width 16, or guard each call with `if` and pass the matching mask.
#include <cuda_runtime.h>

__global__ void half_sums(const int* in, int* lower_sums, int* upper_sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];

  int lo = v;
  for (int offset = 8; offset > 0; offset >>= 1) lo += __shfl_down_sync(0x0000ffff, lo, offset, 16);

  int hi = v;
  for (int offset = 8; offset > 0; offset >>= 1) hi += __shfl_down_sync(0xffff0000, hi, offset, 16);

  lower_sums[i] = lo;
  upper_sums[i] = hi;
}
