// A shuffle that reads lanes that are gone: lanes 16-31 shuffle among themselves and exit; lanes
// 0-15 then shuffle down by 8 naming the whole warp, so lanes 8-15 read exited lanes (undefined,
// and a diagnostic says so). A __syncwarp of the lanes left ends it.
#include <cuda_runtime.h>

__global__ void half_shuffle(const int* in, int* out) {
  int v = in[threadIdx.x];
  if (threadIdx.x < 16) {
    v += __shfl_down_sync(0xffffffff, v, 8);
    __syncwarp(0x0000ffff);
  } else {
    v += __shfl_down_sync(0xffff0000, v, 1);
  }
  out[threadIdx.x] = v;
}
