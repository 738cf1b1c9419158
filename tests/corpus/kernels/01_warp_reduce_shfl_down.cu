// Warp-level sum with __shfl_down_sync: the first reduction every CUDA course shows.
// Each warp sums its 32 consecutive elements; after five halving steps lane 0 holds the total.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(FULL_MASK, val, offset);
  return val;
}

// Elements past n count as zero, so the last warp still runs converged with the full mask.
__global__ void warp_reduce_sum(const float* in, float* warp_sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float val = (i < n) ? in[i] : 0.0f;
  val = warpReduceSum(val);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    warp_sums[i / warpSize] = val;
}
