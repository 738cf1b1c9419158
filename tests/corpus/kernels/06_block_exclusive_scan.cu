// Block-wide exclusive scan: scan inside each warp, publish each warp's total in shared memory,
// let the first warp scan those totals, then add the preceding warps' total to every element.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__device__ int warp_inclusive_scan(int v, int lane) {
  for (int offset = 1; offset < warpSize; offset *= 2) {
    int y = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset) v += y;
  }
  return v;
}

__global__ void block_exclusive_scan(const int* in, int* out, int* block_totals) {
  __shared__ int warp_sums[32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  const int x = in[i];
  const int inclusive = warp_inclusive_scan(x, lane);
  if (lane == warpSize - 1) warp_sums[warp] = inclusive;
  __syncthreads();

  if (warp == 0) {
    const int num_warps = blockDim.x / warpSize;
    int s = (lane < num_warps) ? warp_sums[lane] : 0;
    warp_sums[lane] = warp_inclusive_scan(s, lane);
  }
  __syncthreads();

  const int warp_prefix = (warp > 0) ? warp_sums[warp - 1] : 0;
  out[i] = warp_prefix + inclusive - x;
  if (threadIdx.x == blockDim.x - 1) block_totals[blockIdx.x] = warp_prefix + inclusive;
}
