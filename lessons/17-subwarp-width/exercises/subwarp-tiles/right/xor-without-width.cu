// Right: lane ^ offset with offset < width stays inside the lane's tile, so no width is needed.
#include <cuda_runtime.h>

__global__ void tile_sums(const unsigned* in, unsigned* out, int width) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[t];
  for (int offset = width / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[t] = v;
}
