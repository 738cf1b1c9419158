// What both histogram kernels must compute: how many of the n keys fall in each bin.
#include <cuda_runtime.h>

__global__ void histogram_reference(const int* keys, int n, int* bins) {
  for (int i = 0; i < n; ++i) bins[keys[i]] += 1;
}
