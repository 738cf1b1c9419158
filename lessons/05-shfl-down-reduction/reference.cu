// What shfl_down_sum must compute: the total, and what each lane is left holding.
#include <cuda_runtime.h>

__global__ void shfl_down_sum_reference(const float* in, float* partial, float* total) {
  // The total is the sum of the 32 inputs.
  float sum = 0.0f;
  for (int i = 0; i < 32; ++i) sum += in[i];
  *total = sum;

  // partial: replay the five rounds. In each, lane i adds the value of lane i + offset, or its
  // own value when i + offset is past lane 31 (that is what __shfl_down_sync returns there).
  float v[32];
  for (int i = 0; i < 32; ++i) v[i] = in[i];
  for (int offset = 16; offset > 0; offset /= 2) {
    float next[32];
    for (int i = 0; i < 32; ++i) next[i] = v[i] + (i + offset < 32 ? v[i + offset] : v[i]);
    for (int i = 0; i < 32; ++i) v[i] = next[i];
  }
  for (int i = 0; i < 32; ++i) partial[i] = v[i];
}
