// The sm_80 warp reduce intrinsics (__reduce_*_sync): one instruction instead of a shuffle
// loop. Also the right way to reduce over part of a warp: build the mask with a ballot before
// the branch, then use it inside.
#include <cuda_runtime.h>

__global__ void warp_redux(const int* in, int* sum_all, int* max_all, int* min_all,
                           unsigned int* umin_all, unsigned int* or_all, unsigned int* xor_all,
                           int* sum_positive) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  const unsigned int u = static_cast<unsigned int>(v);

  sum_all[i] = __reduce_add_sync(0xffffffff, v);
  max_all[i] = __reduce_max_sync(0xffffffff, v);
  min_all[i] = __reduce_min_sync(0xffffffff, v);
  umin_all[i] = __reduce_min_sync(0xffffffff, u);  // unsigned compare: -1 is the largest
  or_all[i] = __reduce_or_sync(0xffffffff, u);
  xor_all[i] = __reduce_xor_sync(0xffffffff, u);

  const unsigned int positive = __ballot_sync(0xffffffff, v > 0);
  if (v > 0) sum_positive[i] = __reduce_add_sync(positive, v);
}
