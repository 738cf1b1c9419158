// Generic warp reduction over any type and any associative operator, the way libraries and
// course notes write it: functor structs, a templated __forceinline__ helper, #define'd
// constants, #pragma unroll, __restrict__, and a kernel templated on its block size.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu
#define WARP_SIZE 32

template <typename T>
struct Sum {
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};

template <typename T>
struct Max {
  __device__ __forceinline__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T>
struct Min {
  __device__ __forceinline__ T operator()(T a, T b) const { return a < b ? a : b; }
};

template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    value = op(value, __shfl_xor_sync(FULL_MASK, value, offset));
  return value;
}

// Every lane receives its warp's sum, maximum and minimum.
__global__ void warp_stats(const int* __restrict__ in, int* __restrict__ sums,
                           int* __restrict__ maxs, int* __restrict__ mins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  sums[i] = warp_reduce(v, Sum<int>());
  maxs[i] = warp_reduce(v, Max<int>());
  mins[i] = warp_reduce(v, Min<int>());
}

// Largest |x| of each block: per-warp maxima in shared memory, then the first warp reduces them.
template <int BLOCK_THREADS>
__global__ void block_max_abs(const float* __restrict__ in, float* __restrict__ out) {
  constexpr int kWarps = BLOCK_THREADS / WARP_SIZE;
  __shared__ float warp_max[kWarps];
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;

  float v = fabsf(in[blockIdx.x * BLOCK_THREADS + threadIdx.x]);
  v = warp_reduce(v, Max<float>());
  if (lane == 0) warp_max[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = (lane < kWarps) ? warp_max[lane] : 0.0f;
    v = warp_reduce(v, Max<float>());
    if (lane == 0) out[blockIdx.x] = v;
  }
}

template __global__ void block_max_abs<128>(const float* __restrict__, float* __restrict__);
