// Right: shfl_down inside the tile, then the tile's first lane hands the sum to the tile.
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  for (int offset = width / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset, width);
  out[t] = __shfl_sync(0xffffffff, v, 0, width);
}
