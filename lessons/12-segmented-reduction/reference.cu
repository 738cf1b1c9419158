// What segmented_sum must compute: walk the 32 values once, starting a new sum at every head.
#include <cuda_runtime.h>

__global__ void segmented_sum_reference(const float* in, const int* head, float* out) {
  int segment = -1;
  for (int i = 0; i < 32; ++i) {
    if (i == 0 || head[i] != 0) {  // lane 0 always starts a segment
      ++segment;
      out[segment] = 0.0f;
    }
    out[segment] += in[i];
  }
}
