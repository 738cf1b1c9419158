// Kernels that tests/gpu runs twice: in the simulator (compiled against the host shim, in
// run_on_gpu_kernels.cpp) and on the GPU (this file's text, through NVRTC and run_on_gpu), so that
// buffers and per-lane traces can be compared call for call. Plain CUDA C++, converged code only:
// where CUDA leaves scheduling free, simulator and GPU may legitimately differ.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace cg = cooperative_groups;

__global__ void gk_butterfly(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  out[i] = v;
}

__global__ void gk_ballot_barrier(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ballot = __ballot_sync(0xffffffffu, in[i] > 0);
  const int count = __syncthreads_count(in[i] > 0);
  __syncthreads();
  const int all = __syncthreads_and(in[i] >= 0);
  const int any = __syncthreads_or(in[i] > 5);
  __syncwarp();
  out[i] = __popc(ballot) + 100 * count + 10000 * all + 100000 * any + __all_sync(0xffffffffu, in[i] > -100) +
           __any_sync(0xffffffffu, in[i] == 3) + __uni_sync(0xffffffffu, 1);
}

namespace tiles {
template <int Size>
__global__ void reduce(const int* in, int* out, float* fout) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
  const int total = cg::reduce(tile, in[i], cg::plus<int>());
  float f = static_cast<float>(in[i]);
  f = cg::reduce(tile, f, cg::greater<float>());
  block.sync();
  const unsigned votes = tile.ballot(in[i] % 2 == 0);
  out[i] = tile.thread_rank() == 0 ? v * 1000 + total : static_cast<int>(votes);
  fout[i] = f;
}
}  // namespace tiles

__global__ void gk_halves(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half h = __float2half(in[i]);
  for (int mask = 1; mask < 32; mask *= 2) h = __hadd(h, __shfl_xor_sync(0xffffffffu, h, mask));
  const __nv_bfloat16 b = __shfl_sync(0xffffffffu, __float2bfloat16(in[i]), 3, 16);
  __half2 pair = __floats2half2_rn(in[i], -in[i]);
  pair = __shfl_down_sync(0xffffffffu, pair, 1);
  out[i] = __half2float(h) + __bfloat162float(b) + __low2float(pair) * __high2float(pair);
}

__global__ void gk_match_reduce(const int* keys, const long long* wide, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned same = __match_any_sync(0xffffffffu, keys[i]);
  int pred = 0;
  const unsigned all = __match_all_sync(0xffffffffu, wide[i], &pred);
  const unsigned active = __activemask();
  const int sum = __reduce_add_sync(active, keys[i]);
  const unsigned low = __reduce_min_sync(0xffffffffu, static_cast<unsigned>(keys[i]));
  const int high = __reduce_max_sync(0xffffffffu, keys[i]);
  const unsigned bits = __reduce_or_sync(0xffffffffu, 1u << (i % 32)) ^ __reduce_and_sync(0xffffffffu, 7u) ^
                        __reduce_xor_sync(0xffffffffu, static_cast<unsigned>(keys[i]));
  out[i] = same + all + static_cast<unsigned>(pred) + static_cast<unsigned>(sum) + low + static_cast<unsigned>(high) + bits;
}

__global__ void gk_wide(const double* d, const long long* w, double* dout, long long* wout) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  dout[i] = __shfl_up_sync(0xffffffffu, d[i], 3u) + __shfl_sync(0xffffffffu, d[i], 31 - threadIdx.x % 32, 8);
  wout[i] = __shfl_down_sync(0xffffffffu, w[i], 5u, 16) ^ __shfl_xor_sync(0xffffffffu, w[i], 7);
}
