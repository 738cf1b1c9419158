// 64-bit values through shuffles: double and long long travel as two 32-bit halves, both taken
// from the same source lane. A butterfly double sum, a long long max, and two permutations.
#include <cuda_runtime.h>

__global__ void wide_shuffles(const double* x, const long long* k, double* dsum,
                              long long* kmax, long long* krev, double* drot) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;

  double d = x[i];
  for (int mask = 16; mask > 0; mask >>= 1) d += __shfl_xor_sync(0xffffffff, d, mask);
  dsum[i] = d;

  long long m = k[i];
  for (int offset = 16; offset > 0; offset >>= 1) {
    const long long other = __shfl_down_sync(0xffffffff, m, offset);
    m = other > m ? other : m;
  }
  kmax[i] = m;  // the warp's maximum in lane 0; partial maxima elsewhere

  krev[i] = __shfl_sync(0xffffffff, k[i], 31 - lane);
  drot[i] = __shfl_sync(0xffffffff, x[i], (lane + 1) & 31);
}
