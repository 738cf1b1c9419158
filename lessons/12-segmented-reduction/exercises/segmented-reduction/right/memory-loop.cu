// Right, without warp-level calls: each lane walks head[] to its segment's bounds.
#include <cuda_runtime.h>

__global__ void segmented_sum(const float* in, const int* head, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int base = t - t % 32;
  int start = t;
  while (start > base && head[start] == 0) --start;
  int end = t + 1;
  while (end < base + 32 && head[end] == 0) ++end;
  float sum = 0.0f;
  for (int k = start; k < end; ++k) sum += in[k];
  out[t] = sum;
}
