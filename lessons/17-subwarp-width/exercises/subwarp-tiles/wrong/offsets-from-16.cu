// Wrong: the butterfly of a whole warp with `width` added. Offsets at or above the width do not
// stay in the tile: for lane ^ 16 below the lane, the shuffle reads the tile below.
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffff, v, offset, width);
  }
  out[t] = v;
}
