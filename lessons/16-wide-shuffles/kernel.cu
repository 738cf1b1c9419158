// Lesson 16: shuffling values that are not 32 bits wide. A shuffle moves one 32-bit register.
// A double or long long (64 bits) travels as two 32-bit shuffles, high word then low word, both
// from the same lane; the overloads of __shfl_*_sync do that for you. Two 16-bit halves packed
// in a __half2 travel together in one 32-bit shuffle.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void wide_shuffles(const double* x, const long long* k, const float* h,
                              double* x_last, double* x_sum, long long* k_max, float* h_sum) {
  const int lane = threadIdx.x % 32;

  // What __shfl_sync(mask, double, 31) does inside: split the double into its two 32-bit words,
  // shuffle each from lane 31, and glue them back. Every lane ends with lane 31's x.
  const double mine = x[lane];
  const int hi = __shfl_sync(0xffffffff, __double2hiint(mine), 31);  // step: high word
  const int lo = __shfl_sync(0xffffffff, __double2loint(mine), 31);  // step: low word
  x_last[lane] = __hiloint2double(hi, lo);

  // The same, written the normal way: a butterfly sum of doubles. Each call is two 32-bit
  // shuffles on the hardware; the trace shows it as one step carrying all 64 bits.
  double d = mine;
  for (int offset = 16; offset > 0; offset /= 2) {
    d += __shfl_xor_sync(0xffffffff, d, offset);  // step: double sum
  }
  x_sum[lane] = d;

  // long long: values far beyond 32 bits; the warp's maximum reaches every lane.
  long long m = k[lane];
  for (int offset = 16; offset > 0; offset /= 2) {
    const long long other = __shfl_xor_sync(0xffffffff, m, offset);  // step: long long max
    m = other > m ? other : m;
  }
  k_max[lane] = m;

  // __half2: two 16-bit floats in one 32-bit register. One shuffle moves both, and __hadd2 adds
  // both pairs at once, so the warp computes two sums for the price of one.
  __half2 p = __floats2half2_rn(h[2 * lane], h[2 * lane + 1]);
  for (int offset = 16; offset > 0; offset /= 2) {
    p = __hadd2(p, __shfl_xor_sync(0xffffffff, p, offset));  // step: half2 sums
  }
  h_sum[2 * lane] = __low2float(p);       // sum of h[0], h[2], ..., h[62]
  h_sum[2 * lane + 1] = __high2float(p);  // sum of h[1], h[3], ..., h[63]
}
