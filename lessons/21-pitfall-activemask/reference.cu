// Reference for lesson 21: the sum of in[0..n-1]. The buggy kernel matches it on the default
// schedule only by accident (absent lanes read as 0); the preset fixed matches it by design.
#include <cuda_runtime.h>

__global__ void sum_first_reference(const int* in, int* out, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += in[i];
  *out = sum;
}
