// Reference for lesson 20: what the kernel is meant to compute, the dot product of in[0..15] and
// in[16..31]. The buggy default preset does not match it; the preset fixed does.
#include <cuda_runtime.h>

__global__ void dot16_reference(const int* in, int* out) {
  int sum = 0;
  for (int i = 0; i < 16; ++i) sum += in[i] * in[i + 16];
  *out = sum;
}
