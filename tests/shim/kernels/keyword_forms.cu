// The declaration forms nvcc accepts, each used once: storage keywords in every position and
// scope, attributes, pragmas, a compiler barrier, function pointers of __forceinline__ functions,
// __half in a union, and CUDA's unqualified math classification functions.
#include <cmath>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

__constant__ float kScale[4] = {1.0f, 2.0f, 3.0f, 4.0f};  // file scope, initialized
static __constant__ int kOffset = 10;                      // static before __constant__
__device__ int g_counter = 0;                              // a __device__ variable
__device__ __managed__ int g_managed = 5;
__shared__ float file_tile[32];  // __shared__ at file scope
namespace detail {
__shared__ int namespace_tile[32];  // and in a namespace
__device__ __forceinline__ int larger(int a, int b) { return a > b ? a : b; }
}  // namespace detail

struct __align__(16) Vec4 {
  float x, y, z, w;
};
static_assert(alignof(Vec4) == 16, "__align__ sets the alignment");

union HalfBits {  // needs __half to be trivially default-constructible
  __half h;
  unsigned short u;
};

__device__ __forceinline__ int add(int a, int b) { return a + b; }

__device__ int classify(float x, float y) {
  return (isnan(x) ? 1 : 0) + (isinf(x) ? 2 : 0) + (isfinite(y) ? 4 : 0) + (signbit(-y) ? 8 : 0);
}

// out[8 * t + j] for lane t:
//   0: in[t] + in[t+1] + ... + in[t+7] (indices mod 32), through `static __shared__`
//   1: cg::reduce with the __forceinline__ function `add`: 496
//   2: cg::reduce with detail::larger: 31
//   3: the bits of __half 1.0 read through the union: 0x3c00
//   4: classify(in[t] / 0, in[t]): 13 for t = 0 (NaN, finite, -0.0), 14 otherwise (inf)
//   5: kScale[t % 4] + kOffset + n
//   6: g_managed + file_tile[t] + namespace_tile[t] = 5 + 1 + t
//   7: 1 if the __align__(16) shared array is 16-byte aligned
__global__ void __launch_bounds__(256, 2)
    keyword_forms(const float* __restrict__ in, int* __restrict__ out, const __grid_constant__ int n) {
  static __shared__ float tile[32];
  __shared__ __align__(16) float aligned_tile[32];
  const int t = threadIdx.x;
  tile[t] = in[t];
  aligned_tile[t] = in[t];
  file_tile[t] = 1.0f;
  detail::namespace_tile[t] = t;
  asm volatile("" ::: "memory");
  __syncthreads();
  float window = 0;
#pragma unroll 4
  for (int i = 0; i < 8; ++i) window += tile[(t + i) % 32];
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  HalfBits bits;
  bits.h = __float2half(1.0f);
  int* o = out + 8 * t;
  o[0] = static_cast<int>(window);
#pragma unroll
  for (int k = 0; k < 1; ++k) o[1] = cg::reduce(warp, t, add);
  o[2] = cg::reduce(warp, t, detail::larger);
  o[3] = bits.u;
  o[4] = classify(in[t] / 0.0f, in[t]);
  o[5] = static_cast<int>(kScale[t % 4]) + kOffset + n;
  o[6] = g_managed + static_cast<int>(file_tile[t]) + detail::namespace_tile[t];
  o[7] = reinterpret_cast<unsigned long long>(aligned_tile) % 16 == 0 ? 1 : 0;
  atomicAdd(&g_counter, 1);
}
