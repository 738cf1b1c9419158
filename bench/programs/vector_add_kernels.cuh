// The two kernels of bench/programs/vector_add.cu, shared with bench/scaling/repeat_blocksum.cu:
// vector addition, one thread per element, and a block sum with warp shuffles and shared memory.
#pragma once

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// One partial sum per block of 256 threads, one element per thread.
__global__ void blockSum(const float* in, float* partial, int n) {
  __shared__ float warpSums[32];
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpSums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}
