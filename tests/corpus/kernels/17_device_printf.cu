// Debugging with device printf: each warp's lane 0 prints the warp's sum.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void warp_sums_printf(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  int v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);

  if (lane == 0) {
    out[i / 32] = v;
    printf("block %d warp %d: sum = %d\n", (int)blockIdx.x, warp, v);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    printf("launched %d blocks of %d threads\n", (int)gridDim.x, (int)blockDim.x);
}
