// The kernels of bench/programs/reduce.cu, shared with bench/scaling/repeat_reduce.cu: a
// grid-stride sum per thread, a warp reduction with __shfl_down_sync, the warps' sums through
// shared memory, one atomicAdd per block.
#pragma once

__inline__ __device__ float warpReduceSum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void reduceSum(const float* in, float* total, int n) {
  __shared__ float warpSums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = warpReduceSum(sum);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) warpSums[warp] = sum;
  __syncthreads();
  sum = threadIdx.x < blockDim.x / warpSize ? warpSums[lane] : 0.0f;
  if (warp == 0) sum = warpReduceSum(sum);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}
