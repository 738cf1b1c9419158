// Wrong: the tile's first lane holds the sum, but the broadcast has no width: source lane 0 is
// then lane 0 of the warp, and every tile receives tile 0's sum.
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  for (int offset = width / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset, width);
  }
  out[t] = __shfl_sync(0xffffffff, v, 0);
}
