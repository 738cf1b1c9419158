// Reference for lesson 15: the dot product, one product at a time.
#include <cuda_runtime.h>

__global__ void dot_reference(const float* a, const float* b, float* result, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  *result = s;
}
