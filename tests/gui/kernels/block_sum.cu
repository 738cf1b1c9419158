// A block of two warps adds 64 values: each warp reduces its 32 with shuffles, lane 0 of each
// writes its sum to shared memory, __syncthreads, then warp 0 adds the two.
#include <cuda_runtime.h>

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[2];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < 2 ? partial[lane] : 0;
    v += __shfl_down_sync(0xffffffff, v, 1);
    if (lane == 0) out[0] = v;
  }
}
