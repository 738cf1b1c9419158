// Lesson 14: reducing a whole block. Shuffles only reach the 32 lanes of one warp, so a block of
// 256 threads (8 warps) reduces in two stages: every warp reduces its own 32 values with
// shuffles, the 8 warp sums meet in shared memory, and warp 0 reduces those 8 with shuffles again.
#include <cuda_runtime.h>

#define THREADS 256            // threads per block: launch with exactly this many
#define WARPS (THREADS / 32)   // 8 warps, so 8 partial sums

__global__ void block_sum(const float* in, float* block_sums, int n) {
  __shared__ float warp_sums[WARPS];  // one slot per warp, shared by the whole block
  const int i = blockIdx.x * THREADS + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  // Past the end, a thread adds 0 rather than returning: every thread of the block must reach
  // the full-mask shuffles and the __syncthreads below.
  float v = i < n ? in[i] : 0.0f;

  // Stage 1, every warp at once: lane i adds the value of lane i + offset. After 5 rounds lane 0
  // holds the sum of its warp's 32 values (the other lanes hold partial sums nobody reads).
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);  // step: warp sum
  }
  if (lane == 0) warp_sums[warp] = v;

  // No warp may read warp_sums before all 8 have written it: a barrier for the whole block.
  __syncthreads();  // step: barrier

  // Stage 2, warp 0 only (the whole warp takes this branch, so the full mask is right): lanes
  // 0-7 load the 8 warp sums, lanes 8-31 hold 0, and three rounds bring the total to lane 0.
  if (warp == 0) {
    v = lane < WARPS ? warp_sums[lane] : 0.0f;
    for (int offset = WARPS / 2; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffff, v, offset);  // step: block sum
    }
    if (lane == 0) block_sums[blockIdx.x] = v;
  }
}
