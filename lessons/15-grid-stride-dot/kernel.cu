// Lesson 15: a dot product over any n with a fixed grid. A grid-stride loop lets every thread
// accumulate several products, the block reduces the threads' partial sums (shuffles, shared
// memory, one barrier, as in lesson 14), and one atomicAdd per block adds the block's sum to the
// result. The grid can be chosen for the GPU (a few blocks per SM), independently of n.
#include <cuda_runtime.h>

// Lane 0 ends with the sum of the 32 lanes' v (the other lanes hold partial sums).
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);  // step: warp sum
  }
  return v;
}

// result must be 0 before the launch: every block adds its part to it.
__global__ void dot(const float* a, const float* b, float* result, int n) {
  __shared__ float warp_sums[32];  // enough for 1024 threads
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;

  // Grid-stride loop: with T = gridDim.x * blockDim.x threads in the whole grid, thread t takes
  // elements t, t + T, t + 2T, ... A thread with no element left keeps v = 0 and goes on: every
  // thread must reach the shuffles and the barrier.
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    v += a[i] * b[i];
  }

  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // step: barrier

  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
    // Blocks finish in any order and add to the same float: the addition must be atomic.
    if (lane == 0) atomicAdd(result, v);
  }
}
