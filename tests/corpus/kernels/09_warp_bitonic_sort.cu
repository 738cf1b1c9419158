// Bitonic sort of 32 keys held one per lane. Stage k builds bitonic runs of length k; in step
// j each lane compares with lane ^ j and keeps the smaller or the larger key depending on the
// direction of its run and on whether it is the lower lane of the pair.
#include <cuda_runtime.h>

__global__ void warp_bitonic_sort(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int v = in[i];

#pragma unroll
  for (int k = 2; k <= 32; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      const int partner = __shfl_xor_sync(0xffffffff, v, j);
      const bool ascending = (lane & k) == 0;
      const bool lower = (lane & j) == 0;
      v = (lower == ascending) ? min(v, partner) : max(v, partner);
    }
  }
  out[i] = v;
}
