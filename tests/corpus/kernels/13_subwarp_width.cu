// Shuffles over sub-warps with the width argument: a warp split into independent groups of 8
// or 16 lanes, as used for small rows, tiles and per-quad work. Lane numbers (source lane,
// offsets) are relative to the group, and a shuffle never leaves its group.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void subwarp_sums(const int* in, const float* x, int* sum8, int* down16,
                             int* bcast16, float* fsum8) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];

  // Butterfly inside each group of 8: every lane gets its group's sum.
  int s8 = v;
#pragma unroll
  for (int offset = 4; offset > 0; offset >>= 1) s8 += __shfl_xor_sync(FULL_MASK, s8, offset, 8);
  sum8[i] = s8;

  // Shift-down inside each group of 16: lanes near the top of a group read themselves, so only
  // the group's first lane ends with the full sum.
  int d16 = v;
#pragma unroll
  for (int offset = 8; offset > 0; offset >>= 1) d16 += __shfl_down_sync(FULL_MASK, d16, offset, 16);
  down16[i] = d16;

  // Broadcast each group's first lane (source lane 0 is relative to the group).
  bcast16[i] = __shfl_sync(FULL_MASK, d16, 0, 16);

  float f = x[i];
#pragma unroll
  for (int offset = 4; offset > 0; offset >>= 1) f += __shfl_xor_sync(FULL_MASK, f, offset, 8);
  fsum8[i] = f;
}
