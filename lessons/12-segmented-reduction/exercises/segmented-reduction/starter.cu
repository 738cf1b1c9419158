// Exercise segmented-reduction (lesson 12, segmented reduction): see statement.md.
// Grade it with:  warpsim grade segmented-reduction starter.cu
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  float v = in[t];
  const bool is_head = lane == 0 || head[t] != 0;

  // TODO: every lane receives the sum of in over its own segment.
  (void)is_head;

  out[t] = v;
}
