// Lesson 24: a reduction whose speed is decided by its loads. Summing n floats does one add per
// 4 bytes read, far too little work to keep an H100 busy: the kernel is memory bound, and what
// matters is keeping enough loads in flight to saturate memory. Hence: 16-byte (float4) loads,
// UNROLL independent loads issued per thread before any is used, and a persistent grid (a few
// blocks per SM, each thread striding over the whole array). The warp shuffles at the end run
// once per block and cost next to nothing. bandwidth/bandwidth.cu times this very kernel.
#include <cuda_runtime.h>

#define UNROLL 4  // float4 loads in flight per thread in the main loop

// Lane 0 ends with the sum of the 32 lanes' v.
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffff, v, offset);  // step: warp sum
  }
  return v;
}

// *out must be 0 before the launch; in must be 16-byte aligned (cudaMalloc's memory is).
__global__ void sum_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[32];
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const int n4 = n / 4;                         // whole float4s
  const int stride = gridDim.x * blockDim.x;    // threads in the grid
  const int first = blockIdx.x * blockDim.x + threadIdx.x;

  float sum = 0.0f;
  int i = first;
  // Main loop: UNROLL independent 16-byte loads, all issued before the first add needs one.
  // Neighbouring lanes read neighbouring float4s, so each warp load is 512 contiguous bytes.
  for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += stride) {  // the float4s left over
    const float4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (first < n - 4 * n4) sum += in[4 * n4 + first];  // the last n % 4 floats

  // Once per block: warp sums, then warp 0 adds them, one atomicAdd per block.
  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();  // step: barrier
  if (warp == 0) {
    sum = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, sum);
  }
}
