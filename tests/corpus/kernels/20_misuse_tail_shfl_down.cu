// Per-warp sums of an array whose length is not a multiple of 32.
//
// WHAT IS WRONG: threads past the end return first, and the survivors of the last warp then
// call __shfl_down_sync with the full mask and read lanes that have exited (lane 12 + 1,
// lane 0 + 16, ...). Naming exited lanes in the mask is allowed, but reading a value from one
// is undefined. An H100 happens to return 0 for an exited lane, which is why this kernel often
// "works". Fix: keep every lane alive (load 0 past the end) or build the mask with a ballot and
// never read outside it.
#include <cuda_runtime.h>

__global__ void tail_warp_sum(const int* in, int* warp_sums, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;

  int v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);

  if ((threadIdx.x & 31) == 0) warp_sums[i / 32] = v;
}
