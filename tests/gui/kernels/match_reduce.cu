// Lanes find the others holding the same value, then add theirs up in one call.
#include <cuda_runtime.h>

__global__ void match_then_reduce(const int* in, unsigned* groups, int* sums) {
  const int v = in[threadIdx.x];
  groups[threadIdx.x] = __match_any_sync(0xffffffff, v);
  sums[threadIdx.x] = __reduce_add_sync(0xffffffff, v);
}
