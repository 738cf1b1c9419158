// Reference for lesson 14: block b's sum is the sum of in[b * 256 .. b * 256 + 255] (up to n).
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sum_reference(const float* in, float* block_sums, int n) {
  const int blocks = (n + THREADS - 1) / THREADS;
  for (int b = 0; b < blocks; ++b) {
    float s = 0.0f;
    for (int i = b * THREADS; i < (b + 1) * THREADS && i < n; ++i) s += in[i];
    block_sums[b] = s;
  }
}
