// Exercise subwarp-tiles (lesson 17, sub-warp groups): see statement.md.
// Grade it with:  warpsim grade subwarp-tiles starter.cu
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];

  // TODO: every lane receives the sum of its tile of `width` lanes.
  (void)width;

  out[t] = v;
}
