// Reference solution of the exercise subwarp-tiles (lessons/17-subwarp-width).
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  // A butterfly inside each tile: offsets below the width never leave it.
  for (int offset = width / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffff, v, offset, width);
  }
  out[t] = v;
}
