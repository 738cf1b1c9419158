// Exercise dot-product (lesson 15, a grid-stride dot product): see statement.md.
// Grade it with:  warpsim grade dot-product starter.cu
#include <cuda_runtime.h>

__global__ void dot(const float* a, const float* b, float* result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] * b[i] : 0.0f;

  // TODO: cover every element (a grid-stride loop), reduce the block's products, and add the
  // block's sum to *result.

  if (i == 0) *result = v;
}
