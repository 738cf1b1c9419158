// Kernels the benchmark measures: plain CUDA C++, as users write them.
#pragma once

__global__ void bench_butterfly(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  out[threadIdx.x] = v;
}

// Many back-to-back collectives: measures the cost of one traced warp-level step.
__global__ void bench_shuffle_chain(int rounds, int* out) {
  int v = static_cast<int>(threadIdx.x);
  for (int i = 0; i < rounds; ++i) v += __shfl_xor_sync(0xffffffff, v, i & 31);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The same with four calls per iteration at different lines and of three kinds, as unrolled
// reductions and scans have them (consecutive steps resume lanes at different call sites).
__global__ void bench_unrolled_chain(int rounds, int* out) {
  int v = static_cast<int>(threadIdx.x);
  for (int i = 0; i < rounds; i += 4) {
    v += __shfl_xor_sync(0xffffffff, v, 16);
    v += __shfl_xor_sync(0xffffffff, v, 8);
    v += __shfl_down_sync(0xffffffff, v, 4);
    v += __shfl_up_sync(0xffffffff, v, 2);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Grid-stride sum: per-thread loop, warp shuffles, shared memory across warps, one atomic per block.
__global__ void bench_grid_sum(const float* in, int n, float* out) {
  __shared__ float warp_sums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < static_cast<int>(blockDim.x / 32) ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) atomicAdd(out, sum);
  }
}
